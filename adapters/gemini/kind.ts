/** `kind: gemini`: Google's Gemini API (gemini-adapter.ts); the remote settings plus Gemini's own (settings.ts). */
import { defineKind } from '../../src/backend/backend-kind.js';
import { pointedAt } from '../remote-settings.js';
import { cannedAnswer } from './canned-answer.js';
import { createGeminiAdapter, geminiHeaders } from './gemini-adapter.js';
import { checkGeminiSettings, GEMINI_DEFAULT_SETTINGS, GEMINI_KEYS } from './settings.js';

export const geminiKind = defineKind({
  name: 'gemini',
  provider: 'gcp.gemini',
  remote: true,
  keys: GEMINI_KEYS,
  check: checkGeminiSettings,
  defaults: GEMINI_DEFAULT_SETTINGS,
  relayHeaders: geminiHeaders,
  warmUp: { pointedAt, cannedAnswer },
  create: (name, settings) => createGeminiAdapter(settings, { name }),
});
