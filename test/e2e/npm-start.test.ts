/**
 * `npm start` as a user stops it: a SIGTERM to npm's own PID stops the server
 * and the bundled worker (npm passes the signal to its script, which `exec`s
 * node). And a signal repeated at once, as a terminal's Ctrl-C reaches both npm
 * and the server and npm passes its own on, is one request to stop, not two.
 * Uses the build (`npm test` builds first: scripts/start.mjs finds it fresh and serves it).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { spawnProxy, type ProxyProcess } from '../helpers/proxy-process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The processes whose parent is `pid` (ps: Linux and macOS). */
function childrenOf(pid: number): number[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, parent]) => parent === pid)
    .map(([child]) => child);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (check()) return true;
  }
  return check();
}

describe('npm start', () => {
  let npm: ChildProcess | undefined;
  let started: number[] = [];

  afterEach(() => {
    for (const pid of started) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    if (npm?.exitCode === null) npm.kill('SIGKILL');
  });

  test('SIGTERM to its PID stops the server and its worker', async () => {
    npm = spawn('npm', ['start', '--', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [npm.stdout, npm.stderr]) stream?.setEncoding('utf8').on('data', (text: string) => (output += text));
    const exited = new Promise<number | null>((resolve) => npm?.once('exit', (code) => resolve(code)));
    expect(await until(() => output.includes('backends ready'), 60_000)).toBe(true);
    // npm's child is the server itself (the script `exec`s node); the bundled worker is the server's child.
    const descendants = (pid: number): number[] => childrenOf(pid).flatMap((child) => [child, ...descendants(child)]);
    started = descendants(npm.pid as number);
    expect(started.length).toBeGreaterThanOrEqual(2);

    npm.kill('SIGTERM');
    await exited;
    const left = await until(() => started.every((pid) => !isRunning(pid)), 10_000);
    expect({ stillRunning: started.filter(isRunning), log: left ? '' : output }).toEqual({ stillRunning: [], log: '' });
    expect(output).toContain('SIGTERM: shutting down');
  }, 90_000);
});

describe('a signal repeated at once', () => {
  let upstream: MockUpstream;
  let proxy: ProxyProcess | undefined;

  beforeAll(async () => {
    upstream = await startMockUpstream();
  });
  afterAll(async () => {
    if (proxy?.child.exitCode === null) proxy.child.kill('SIGKILL');
    await upstream.close();
  });

  test('is one request to stop: the drain goes on, and the process exits 0', async () => {
    upstream.reply({ hang: true });
    proxy = await spawnProxy({
      server: { host: '127.0.0.1', port: 0, shutdownGraceMs: 500 },
      backends: { up: { kind: 'openai', url: upstream.url } },
      routes: [{ model: '*', backend: 'up' }],
    });
    const pending = fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the request reaches the upstream
    proxy.child.kill('SIGINT');
    await proxy.waitForLine(/draining/);
    proxy.child.kill('SIGINT');
    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    expect(proxy.lines.join('\n')).not.toContain('SIGINT again');
    await pending;
  }, 30_000);
});

describe("npm start's build step", () => {
  const script = path.join(root, 'scripts/build-when-stale.mjs');
  const check = () => {
    try {
      execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
      return 'fresh';
    } catch (error) {
      return String((error as { stdout?: string }).stdout).trim();
    }
  };

  test('a build newer than every source is served as it is; a source changed since is built first', () => {
    // npm test built just now.
    expect(check()).toBe('fresh');
    const source = path.join(root, 'src/cli.ts');
    const { atime, mtime } = statSync(source);
    try {
      utimesSync(source, atime, new Date(Date.now() + 60_000));
      expect(check()).toBe('src changed since the last build');
    } finally {
      utimesSync(source, atime, mtime);
    }
  });
});
