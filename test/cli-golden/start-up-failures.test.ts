/**
 * Start-up failures whose words depend on the machine (a port taken now, a
 * temporary file), so they cannot be golden files: the built `dialect-proxy`
 * (dist/src/cli.js) in its own process, one line on stderr, the exit code.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/src/cli.js');

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let work: string;
let taken: Server;
let port: number;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'start-up-failures-'));
  writeFileSync(
    path.join(work, 'remote.yaml'),
    'backends:\n  up: { kind: openai, url: "http://127.0.0.1:9/v1", speaks: [chat] }\nroutes:\n  - { model: "*", backend: up }\n',
  );
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

const inUse = () =>
  `dialect-proxy: 127.0.0.1:${port} is in use (another dialect-proxy?): stop that process, or choose another port with --port N\n`;

test('a port in use: one line that says so, exit 1', async () => {
  const { code, stdout, stderr } = await run(['--config', path.join(work, 'remote.yaml'), '--port', String(port)]);
  expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: inUse() });
});

test('a port in use under --workers 2: the same line once (not a stack trace per worker), exit 1', async () => {
  const { code, stdout, stderr } = await run(['--config', path.join(work, 'remote.yaml'), '--port', String(port), '--workers', '2']);
  expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: inUse() });
});

test('a model file that is not a model: the server stops with the reason, exit 1 (it would answer 503 to everything)', async () => {
  const model = path.join(work, 'not-a-model.gguf');
  writeFileSync(model, 'this is not GGUF');
  writeFileSync(
    path.join(work, 'local.yaml'),
    `backends:\n  local: { kind: llama-cpp, model: ${JSON.stringify(model)} }\nroutes:\n  - { model: "*", backend: local }\n`,
  );
  const { code, stderr } = await run(['--config', path.join(work, 'local.yaml'), '--port', '0']);
  expect(code).toBe(1);
  expect(stderr).toMatch(/^dialect-proxy: a backend failed to start: .+\n$/);
}, 30_000);
