/**
 * loadConfig's failures a person fixes: a file missing or not YAML (its line
 * and column), every unset environment variable at once; and the offline
 * commands' reading, where an unset variable is empty (nothing is sent).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/runtime/configuration.js';

const remote = {
  server: { apiKeys: ['${PROXY_KEY}'] },
  backends: {
    openai: { kind: 'openai', url: 'https://api.openai.com/v1', apiKey: '${OPENAI_KEY}', speaks: ['chat'] },
    fireworks: { kind: 'fireworks', url: 'https://api.fireworks.ai/inference/v1', apiKey: '${FIREWORKS_KEY}' },
    mirror: { kind: 'fireworks', url: 'https://mirror.test/v1', apiKey: '${FIREWORKS_KEY}' },
  },
  routes: [{ model: '*', backend: 'openai' }],
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'configuration-errors-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a server start names every unset variable in one error, each with where it is used', () => {
  expect(() => loadConfig(remote, { OPENAI_KEY: 'set' })).toThrow(
    new ConfigError(
      'environment',
      'variables not set: PROXY_KEY (server.apiKeys[0]), FIREWORKS_KEY (backends.fireworks.apiKey, backends.mirror.apiKey); set them, or use ${NAME:-default} to allow one unset',
    ),
  );
});

test('the offline reading needs none of them: unset reads as empty', () => {
  const config = loadConfig(remote, {}, { unsetVariables: 'empty' });
  expect(config.server.apiKeys).toEqual([]);
  expect(config.backends.openai).toMatchObject({ apiKey: '' });
});

test('offline, an unset variable the check then refuses is named as the variable', () => {
  const config = { backends: { up: { kind: 'openai', url: '${UP_URL}' } }, routes: [{ model: '*', backend: 'up' }] };
  expect(() => loadConfig(config, {}, { unsetVariables: 'empty' })).toThrow(
    new ConfigError('backends.up.url', 'environment variable UP_URL is not set (use ${UP_URL:-default} to allow that)'),
  );
});

test('a file that does not exist, and a directory, are named', () => {
  const missing = path.join(dir, 'nothere.yaml');
  expect(() => loadConfig(missing)).toThrow(
    new ConfigError(missing, 'no such file; a configuration is a YAML file, e.g. config/default.yaml'),
  );
  expect(() => loadConfig(dir)).toThrow(
    new ConfigError(dir, 'a directory, not a file; a configuration is a YAML file, e.g. config/default.yaml'),
  );
});

test('YAML that does not parse: the file, line and column, and what is wrong, in one line', () => {
  const file = path.join(dir, 'bad.yaml');
  writeFileSync(file, 'backends:\n  up: { kind: openai\nroutes: []\n');
  let message = '';
  try {
    loadConfig(file);
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toMatch(new RegExp(`^config: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: not valid YAML: \\S.*$`));
});
