/**
 * Starting the bench's targets, each in its own process so that its memory and
 * CPU time are its own: the mock upstream, a bare node:http pass-through,
 * Express + http-proxy-middleware, and dialect-proxy run as users run it (the
 * CLI with a generated config file).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { processTree, startChild } from './children.js';

export interface Running {
  process: ChildProcess;
  port: number;
  /** Where the target's own output went, if anywhere. */
  log?: string;
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const forked = async (file: string, args: string[]): Promise<Running> => {
  const {
    process: child,
    ports: [port],
  } = await startChild(file, args);
  return { process: child, port };
};

/** The mock upstream (bench/upstream.ts): `[tokens] [intervalMs] [events]`. */
export const startMock = (args: string[] = []) => forked('./upstream.js', args);
/** The bare node:http pass-through (bench/passthrough.ts), the floor of any proxy. */
export const startPassThrough = (upstreamPort: number) => forked('./passthrough.js', [String(upstreamPort)]);
/** Express + http-proxy-middleware (bench/hpm.ts), what users run today. */
export const startHpm = (upstreamPort: number) => forked('./hpm.js', [String(upstreamPort)]);

/**
 * dialect-proxy as users run it: `node dist/src/cli.js --config <yaml>` with
 * one backend, `backend` (its kind and what it speaks; its `url`, else the upstream's /v1), and
 * every model routed to it; ready once /healthz answers 200. `args` go to the
 * CLI too (`--workers N`).
 */
export async function startCli(
  name: string,
  backend: Record<string, unknown>,
  upstreamPort: number,
  dir: string,
  args: string[] = [],
  /** Another build's CLI (`npm run bench -- --versus DIR`); by default this one's. */
  cli = fileURLToPath(new URL('../src/cli.js', import.meta.url)),
): Promise<Running> {
  const config = join(dir, `${name}.yaml`);
  // logLevel warn: failures are logged, the line per request is not (the pass-through peers log nothing either).
  writeFileSync(
    config,
    stringify({
      server: { host: '127.0.0.1', logLevel: 'warn' },
      backends: { remote: { url: `http://127.0.0.1:${upstreamPort}/v1`, ...backend } },
      routes: [{ model: '*', backend: 'remote' }],
    }),
  );
  const port = await freePort();
  return spawnServer({
    name,
    what: 'dialect-proxy',
    args: [cli, '--config', config, '--port', String(port), ...args],
    port,
    dir,
    ready: { path: '/healthz', ok: true },
  });
}

export interface ServerLaunch {
  /** The target's name in the bench (its log: `<dir>/<name>.log`). */
  name: string;
  /** What it is, for a failure's words. */
  what: string;
  /** Node's arguments: the script, then its own. */
  args: string[];
  port: number;
  dir: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Ready once `path` answers: 200 when `ok`, else any HTTP answer (a route that wants a key says 401). */
  ready: { path: string; ok: boolean };
  timeoutMs?: number;
}

/** A server started with node, its output to a log, polled until ready; throws with the log's end if it exits or is not ready in time. */
export async function spawnServer(launch: ServerLaunch): Promise<Running> {
  const { name, what, port, ready, timeoutMs = 30_000 } = launch;
  const log = join(launch.dir, `${name}.log`);
  const output = openSync(log, 'w');
  const child = spawn(process.execPath, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ['ignore', output, output] });
  closeSync(output); // the child has its own
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${name}: ${what} exited with ${child.exitCode}: ${readFileSync(log, 'utf8').slice(-2000)}`);
    if (performance.now() > deadline)
      throw new Error(`${name}: ${what} not ready after ${timeoutMs / 1000} s: ${readFileSync(log, 'utf8').slice(-2000)}`);
    const answered = await fetch(`http://127.0.0.1:${port}${ready.path}`).then(
      (response) => response.ok || !ready.ok,
      () => false,
    );
    if (answered) return { process: child, port, log };
    await sleep(20); // soon after ready: the cold start of `npm run load` sends its clients then
  }
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. Its children left behind are sent SIGTERM too. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const below = processTree(child.pid!).slice(1);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
  for (const pid of below) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone with its parent
    }
  }
}
