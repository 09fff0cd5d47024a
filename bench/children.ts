/**
 * What the bench's parts share: starting a server child that prints its ports,
 * a load from a process of its own (workers-client.ts), medians and percentiles, and (Linux) placing a process on cores and reading
 * its memory and CPU time, and the whole machine's.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { ClientResult, ClientSettings } from './workers-client.js';

/** Forks `file` (relative to bench/) and waits for the line of ports it prints once listening. */
export async function startChild(file: string, args: string[] = []): Promise<{ process: ChildProcess; ports: number[] }> {
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { process: child, ports: line.toString().trim().split(' ').map(Number) };
}

/** One load from a process of its own (workers-client.ts): its figures, once it has exited. */
export async function loadFromChild(settings: ClientSettings): Promise<ClientResult> {
  const child = fork(fileURLToPath(new URL('./workers-client.js', import.meta.url)), [JSON.stringify(settings)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [result] = (await once(child, 'message')) as [ClientResult];
  await once(child, 'exit').catch(() => undefined);
  return result;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The nearest-rank percentile `p` (0-100) of `values`; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const readProc = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** The CPUs this process may run on (Linux's Cpus_allowed_list), or undefined where that is unknown. */
export function allowedCpus(): number[] | undefined {
  const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(readProc('/proc/self/status') ?? '')?.[1];
  if (!list) return undefined;
  return list.split(',').flatMap((range) => {
    const [from, to = from] = range.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/** Pins every thread of `pid` to `cpus` with taskset; false when taskset is missing or refused. */
export function pin(pid: number, cpus: number[]): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus.join(','), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Resident memory of processes just started, in bytes: `early`, the median of
 * the samples 1-2 s after start; `settled`, the lowest one-second median over
 * `windowMs`. V8's memory reducer shrinks, once a process has been idle for a
 * while (8 s at the earliest; 16-20 s and more when several processes started
 * at once), the young generation that its start grew (dialect-proxy: ~13 MB of
 * mostly empty semi-space, hpm ~4 MB): the settled figure is what an idle
 * server holds, the early one what it holds while it starts.
 */
export async function idleRss(pids: number[], windowMs: number): Promise<{ early: number; settled: number }[]> {
  const secondMedians = async () => {
    const samples = pids.map(() => [] as number[]);
    for (let i = 0; i < 4; i++) {
      pids.forEach((pid, index) => samples[index].push(residentBytes(pid)?.rss ?? NaN));
      await sleep(250);
    }
    return samples.map(median);
  };
  await sleep(1000);
  const early = await secondMedians();
  const settled = [...early];
  for (let elapsed = 2000; elapsed < windowMs; elapsed += 1000) {
    (await secondMedians()).forEach((rss, index) => {
      settled[index] = Math.min(settled[index], rss);
    });
  }
  return pids.map((_, index) => ({ early: early[index], settled: settled[index] }));
}

/** Resident memory of `pid` in bytes, now (VmRSS) and at its highest so far (VmHWM); undefined off Linux or once it has gone. */
export function residentBytes(pid: number): { rss: number; peak: number } | undefined {
  const status = readProc(`/proc/${pid}/status`);
  const rss = status && /^VmRSS:\s*(\d+) kB/m.exec(status)?.[1];
  const peak = status && /^VmHWM:\s*(\d+) kB/m.exec(status)?.[1];
  return rss && peak ? { rss: Number(rss) * 1024, peak: Number(peak) * 1024 } : undefined;
}

/** CPU seconds (user + system) `pid` has used so far; undefined off Linux or once it has gone. Assumes 100 clock ticks a second, as Linux has. */
export function cpuSeconds(pid: number): number | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * `pid` and every process below it, from the parent ids in /proc (Linux); just `pid` elsewhere. A peer
 * may serve from a child process (claude-code-router's gateway runs under its management service).
 */
export function processTree(pid: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [pid];
  }
  const children = new Map<number, number[]>();
  for (const name of names) {
    const stat = readProc(`/proc/${name}/stat`);
    if (!stat) continue;
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** CPU seconds of `pid` and the processes below it; undefined once `pid` has gone. */
export function treeCpuSeconds(pid: number): number | undefined {
  const own = cpuSeconds(pid);
  if (own === undefined) return undefined;
  return processTree(pid)
    .slice(1)
    .reduce((sum, child) => sum + (cpuSeconds(child) ?? 0), own);
}

/** CPU seconds of the whole machine so far, from /proc/stat (100 ticks a second): busy, and of that, interrupts (hard and soft: loopback networking, mostly, which no process is charged with); 0 off Linux. */
export function machineSeconds(): { busy: number; interrupts: number } {
  const fields = (readProc('/proc/stat') ?? '').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  if (fields.length < 4) return { busy: 0, interrupts: 0 };
  return {
    busy: (fields.reduce((sum, value) => sum + value, 0) - fields[3] - (fields[4] ?? 0)) / 100,
    interrupts: ((fields[5] ?? 0) + (fields[6] ?? 0)) / 100,
  };
}
