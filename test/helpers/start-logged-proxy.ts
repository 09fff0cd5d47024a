/**
 * The real proxy on 127.0.0.1:0 with its log kept: the status of every request it answered, from
 * its `request` log lines, so that a test can say that a client's session met no 4xx.
 */
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logging/logger.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { startServer, type RunningServer } from '../../src/http/server.js';

export interface LoggedProxy {
  proxy: RunningServer;
  /** The status of each request answered so far, in the order they ended. */
  statuses(): number[];
}

/** `config`: a config file, or its content as an object; the warm-up is off (test/e2e/warm-up.test.ts has it). */
export async function startLoggedProxy(config: string | Record<string, unknown>, env: Record<string, string> = {}): Promise<LoggedProxy> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const checked = typeof config === 'string' ? loadConfig(config, env) : loadConfig(config);
  const proxy = await startServer(
    { ...checked, server: { ...checked.server, warmUpMs: 0 } },
    { port: 0, host: '127.0.0.1', logger: createLogger({ json: true, stream: sink }) },
  );
  await proxy.proxy.ready;
  const statuses = () =>
    lines
      .map((line) => JSON.parse(line) as { message: string; status?: number })
      .flatMap((entry) => (entry.message === 'request' ? [entry.status ?? 0] : []));
  return { proxy, statuses };
}
