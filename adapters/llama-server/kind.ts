/** `kind: llama-server`: llama.cpp's own HTTP server (llama-server-adapter.ts); the remote settings plus `jinja`. */
import { defineKind } from '../../src/backend/backend-kind.js';
import { optionalBoolean } from '../../src/config/config-checks.js';
import { checkRemoteSettings, NOWHERE, pointedAt, REMOTE_KEYS } from '../remote-settings.js';
import { createLlamaServerAdapter, type LlamaServerSettings } from './llama-server-adapter.js';

export const llamaServerKind = defineKind<LlamaServerSettings>({
  name: 'llama-server',
  remote: true,
  keys: [...REMOTE_KEYS, 'jinja'],
  check(raw, key) {
    optionalBoolean(raw.jinja, `${key}.jinja`);
    return checkRemoteSettings(raw, key);
  },
  defaults: { kind: 'llama-server', url: NOWHERE },
  pointedAt,
  create: (name, settings) => createLlamaServerAdapter(settings, { name }),
});
