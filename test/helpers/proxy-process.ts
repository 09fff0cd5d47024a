/**
 * The real `dialect-proxy` command (the built dist/src/cli.js: `npm test` builds first) in its own
 * process, with a config written to a temporary file; its log lines are kept for the test to read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ProxyProcess {
  child: ChildProcess;
  /** The bound URL, once the proxy said it listens. */
  url: string;
  /** stdout and stderr, line by line. */
  lines: string[];
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first log line (seen or to come) matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/** How the process is started besides its config: its environment (default: this one's) and flags for node itself. */
export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  nodeArgs?: string[];
}

/** Writes `config` (JSON is YAML) and runs the command on it; resolves once it listens and its backends are ready. */
export async function spawnProxy(config: Record<string, unknown>, args: string[] = [], options: SpawnOptions = {}): Promise<ProxyProcess> {
  const started = runProxy(config, args, options);
  try {
    // Generous: a start that loads models on a loaded 2-core machine (a whole suite beside it) is not what callers test.
    await started.waitForLine(/backends ready/, 30_000);
    const listening = await started.waitForLine(/listening on http:\/\/\S+/);
    return { ...started, url: /listening on (http:\/\/[^\s"]+)/.exec(listening)?.[1] ?? '' };
  } catch (error) {
    // A start that failed is stopped, workers and all: left running, it kept a whole Jest run from exiting.
    started.child.kill('SIGKILL');
    throw error;
  }
}

/** Runs the command without waiting for anything (for one that should refuse to start). */
export function runProxy(config: Record<string, unknown>, args: string[] = [], options: SpawnOptions = {}): Omit<ProxyProcess, 'url'> {
  const dir = mkdtempSync(join(tmpdir(), 'dialect-proxy-process-'));
  const file = join(dir, 'proxy.yaml');
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'dist/src/cli.js', '--config', file, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.env ? { env: options.env } : {}),
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const take = (line: string) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream
      ?.setEncoding('utf8')
      .on('data', (text: string) => {
        const parts = (rest + text).split('\n');
        rest = parts.pop() ?? '';
        parts.forEach(take);
      })
      .on('end', () => {
        if (rest) take(rest);
      });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  void exited.then(() => rmSync(dir, { recursive: true, force: true }));
  return {
    child,
    lines,
    exited,
    waitForLine(pattern, timeoutMs = 8000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no log line matching ${pattern} within ${timeoutMs} ms; got:\n${lines.join('\n')}`)),
          timeoutMs,
        );
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
        void exited.then(() =>
          setTimeout(() => {
            clearTimeout(timer);
            reject(new Error(`the proxy exited without a log line matching ${pattern}; got:\n${lines.join('\n')}`));
          }, 50),
        );
      });
    },
  };
}
