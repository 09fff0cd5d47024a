/** `kind: gemini`: Google's Gemini API (gemini-adapter.ts); the remote settings plus Gemini's own (settings.ts). */
import { defineKind } from '../../src/backend/backend-kind.js';
import { pointedAt } from '../remote-settings.js';
import { createGeminiAdapter, geminiHeaders } from './gemini-adapter.js';
import { checkGeminiSettings, GEMINI_DEFAULT_SETTINGS, GEMINI_KEYS, type GeminiSettings } from './settings.js';

export const geminiKind = defineKind<GeminiSettings>({
  name: 'gemini',
  remote: true,
  keys: GEMINI_KEYS,
  check: checkGeminiSettings,
  defaults: GEMINI_DEFAULT_SETTINGS,
  relayHeaders: geminiHeaders,
  pointedAt,
  create: (name, settings) => createGeminiAdapter(settings, { name }),
});
