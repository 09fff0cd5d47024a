/** Under `--workers`: which workers served requests, read from a proxy process's log lines. */
import type { ProxyProcess } from './proxy-process.js';

/** The workers named by the request log lines ({"message":"request",...,"worker":N}). */
export function servingWorkers(proxy: Pick<ProxyProcess, 'lines'>): Set<number> {
  const workers = new Set<number>();
  for (const line of proxy.lines) {
    try {
      const entry = JSON.parse(line) as { message?: string; worker?: number };
      if (entry.message === 'request' && entry.worker !== undefined) workers.add(entry.worker);
    } catch {
      // not a JSON line
    }
  }
  return workers;
}
