/** An open relay must be asked for: a non-loopback address without apiKeys is refused unless allowUnauthenticated. */
import { ConfigError, loadConfig } from '../../src/runtime/configuration.js';
import { checkOpenRelay, isLoopbackHost } from '../../src/http/open-relay.js';
import { startServer } from '../../src/http/server.js';

const open = { apiKeys: [], allowUnauthenticated: false };

test.each(['127.0.0.1', '127.4.5.6', 'localhost', 'LocalHost', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])(
  '%s is loopback',
  (host) => {
    expect(isLoopbackHost(host)).toBe(true);
    expect(() => checkOpenRelay(host, open)).not.toThrow();
  },
);

test.each(['0.0.0.0', '::', '', '10.0.0.5', '128.0.0.1', '::2', 'proxy.internal', 'localhost.example.com'])(
  '"%s" is not loopback: refused without keys',
  (host) => {
    expect(isLoopbackHost(host)).toBe(false);
    expect(() => checkOpenRelay(host, open)).toThrow(ConfigError);
  },
);

test('the refusal says why and how to allow it', () => {
  expect(() => checkOpenRelay('0.0.0.0', open)).toThrow(
    /0\.0\.0\.0 is not a loopback address: anyone who can reach the port could use the backends.*server\.apiKeys.*127\.0\.0\.1.*server\.allowUnauthenticated: true/,
  );
});

test('apiKeys, or allowUnauthenticated: true, let it listen anywhere', () => {
  expect(() => checkOpenRelay('0.0.0.0', { apiKeys: ['k'], allowUnauthenticated: false })).not.toThrow();
  expect(() => checkOpenRelay('0.0.0.0', { apiKeys: [], allowUnauthenticated: true })).not.toThrow();
});

test("startServer refuses it; its host option (the CLI's --host) is the one checked", async () => {
  const config = loadConfig({
    backends: { up: { kind: 'openai', url: 'http://127.0.0.1:9/v1' } },
    routes: [{ model: '*', backend: 'up' }],
  });
  await expect(startServer(config, { host: '0.0.0.0', port: 0 })).rejects.toThrow(/server\.allowUnauthenticated/);
  const onAll = loadConfig({
    server: { host: '0.0.0.0' },
    backends: { up: { kind: 'openai', url: 'http://127.0.0.1:9/v1' } },
    routes: [{ model: '*', backend: 'up' }],
  });
  await expect(startServer(onAll, { port: 0 })).rejects.toThrow(ConfigError);
});
