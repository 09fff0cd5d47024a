/** `kind: anthropic`: Anthropic's Messages API (anthropic-adapter.ts); the remote settings plus Anthropic's own (settings.ts). */
import { defineKind } from '../../src/backend/backend-kind.js';
import { anthropicHeaders, createAnthropicAdapter } from './anthropic-adapter.js';
import { pointedAt } from '../remote-settings.js';
import { cannedAnswer } from './canned-answer.js';
import { ANTHROPIC_DEFAULT_SETTINGS, ANTHROPIC_KEYS, checkAnthropicSettings } from './settings.js';

export const anthropicKind = defineKind({
  name: 'anthropic',
  remote: true,
  keys: ANTHROPIC_KEYS,
  check: checkAnthropicSettings,
  defaults: ANTHROPIC_DEFAULT_SETTINGS,
  relayHeaders: anthropicHeaders,
  warmUp: { pointedAt, cannedAnswer },
  create: (name, settings) => createAnthropicAdapter(settings, { name }),
});
