/** `kind: llama-server`: llama.cpp's own HTTP server (llama-server-adapter.ts); the remote settings plus `jinja`. */
import { defineKind } from '../../src/backend/backend-kind.js';
import { optionalBoolean } from '../../src/config/config-checks.js';
import { checkRemoteSettings, NOWHERE, pointedAt, REMOTE_KEYS } from '../remote-settings.js';
import { cannedAnswer } from '../openai/canned-answer.js';
import { createLlamaServerAdapter, type LlamaServerSettings } from './llama-server-adapter.js';

export const llamaServerKind = defineKind({
  name: 'llama-server',
  // The conventions' name for llama.cpp, whose server this is.
  provider: 'llama.cpp',
  remote: true,
  keys: [...REMOTE_KEYS, 'jinja'],
  check(raw, key): LlamaServerSettings {
    optionalBoolean(raw.jinja, `${key}.jinja`);
    return checkRemoteSettings(raw, key);
  },
  defaults: { kind: 'llama-server', url: NOWHERE },
  // The OpenAI wire's answers: llama-server's own `/props` is a 404 there, as on an older server.
  warmUp: { pointedAt, cannedAnswer },
  create: (name, settings) => createLlamaServerAdapter(settings, { name }),
});
