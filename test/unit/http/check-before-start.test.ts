/** A server start stops before it listens when a model file is missing; builtin and hf: are made or fetched on start. */
import { checkBeforeStart } from '../../../src/http/check-before-start.js';
import { ConfigError, loadConfig } from '../../../src/runtime/configuration.js';

const withModel = (model: string) =>
  loadConfig({ backends: { local: { kind: 'llama-cpp', model } }, routes: [{ model: '*', backend: 'local' }] }, {});

test('a path that does not exist names the key, the path and what model: takes', () => {
  expect(() => checkBeforeStart(withModel('/nonexistent/m.gguf'))).toThrow(
    new ConfigError(
      'backends.local.model',
      "no file /nonexistent/m.gguf (model: takes a .gguf file's path, relative to the directory the proxy runs in; or builtin; or hf:owner/repo/file.gguf)",
    ),
  );
});

test('builtin, hf: and remote backends pass', () => {
  expect(() => checkBeforeStart(withModel('builtin'))).not.toThrow();
  expect(() => checkBeforeStart(withModel('hf:owner/repo/file.gguf'))).not.toThrow();
  expect(() =>
    checkBeforeStart(
      loadConfig({ backends: { up: { kind: 'openai', url: 'https://x/v1' } }, routes: [{ model: '*', backend: 'up' }] }, {}),
    ),
  ).not.toThrow();
});
