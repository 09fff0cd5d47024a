/** The `dialect-proxy` command refuses to start as an open relay, says why without a stack, and exits 1. */
import { runProxy, spawnProxy } from '../helpers/proxy-process.js';

const config = (server: Record<string, unknown>) => ({
  server: { port: 0, ...server },
  backends: { up: { kind: 'openai', url: 'http://127.0.0.1:9/v1' } },
  routes: [{ model: '*', backend: 'up' }],
});

test('host 0.0.0.0 without apiKeys: exit 1 with the reason, no stack', async () => {
  const refused = runProxy(config({ host: '0.0.0.0' }));
  expect((await refused.exited).code).toBe(1);
  const output = refused.lines.join('\n');
  expect(output).toContain('config: server.apiKeys: none set, and 0.0.0.0 is not a loopback address');
  expect(output).toContain('server.allowUnauthenticated: true');
  expect(output).not.toMatch(/\n\s+at /);
});

test('--host overrides server.host: a loopback config with --host 0.0.0.0 is refused too', async () => {
  const refused = runProxy(config({ host: '127.0.0.1' }), ['--host', '0.0.0.0']);
  expect((await refused.exited).code).toBe(1);
  expect(refused.lines.join('\n')).toContain('0.0.0.0 is not a loopback address');
});

test('allowUnauthenticated: true starts it, with a warning in the log', async () => {
  const running = await spawnProxy(config({ host: '0.0.0.0', allowUnauthenticated: true }));
  expect(running.lines.join('\n')).toContain('open relay: no server.apiKeys on 0.0.0.0');
  running.child.kill('SIGTERM');
  expect((await running.exited).code).toBe(0);
});
