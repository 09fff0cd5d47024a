/**
 * `kind: gemini` settings: the remote settings every kind takes (url or urls,
 * apiKey, retries, timeouts, maxConcurrent...) and Gemini's own. `url` is the
 * API base ending in `/v1beta`; `speaks` and `maxTopLogprobs` are not taken:
 * generateContent is chat only and returns at most 20 top logprobs.
 */
import { ConfigError, optionalBoolean, optionalString } from '../../src/config/config-checks.js';
import { checkRemoteSettings, REMOTE_KEYS, type RemoteBackendSettings } from '../remote-settings.js';

/** Where a function's JSON Schema goes: `parametersJsonSchema` (any JSON Schema) or `parameters` (Google's OpenAPI subset). */
export type ToolSchemaField = 'parametersJsonSchema' | 'parameters';

/**
 * @example
 * const gemini: GeminiSettings = {
 *   kind: 'gemini', url: 'https://generativelanguage.googleapis.com/v1beta', apiKey: process.env.GEMINI_API_KEY, thinkingLevels: true,
 * };
 */
export interface GeminiSettings extends RemoteBackendSettings {
  /**
   * `parametersJsonSchema` (default): a tool's JSON Schema goes whole. `parameters`: for models
   * that take only Google's Schema subset; keywords it lacks are rewritten where exact (`const`
   * as a one-value `enum`, a `$ref` inlined) and otherwise refused naming the caller's field.
   */
  toolSchemas?: ToolSchemaField;
  /**
   * The backend's models take `thinkingConfig.thinkingLevel` (Gemini 3): an effort goes as a
   * level, and a thinking budget as the effort the ladder gives it. Without it, efforts go as
   * `thinkingBudget` from the ladder (Gemini 2.5).
   */
  thinkingLevels?: boolean;
}

export const GEMINI_DEFAULTS = {
  toolSchemas: 'parametersJsonSchema',
} as const satisfies Partial<GeminiSettings>;

/** Not taken: generateContent serves chat only, with its own limit on top logprobs. */
const NOT_TAKEN = new Set(['speaks', 'maxTopLogprobs']);

export const GEMINI_KEYS: readonly string[] = [...REMOTE_KEYS.filter((key) => !NOT_TAKEN.has(key)), 'toolSchemas', 'thinkingLevels'];

const TOOL_SCHEMAS: readonly ToolSchemaField[] = ['parametersJsonSchema', 'parameters'];

export function checkGeminiSettings(raw: Record<string, unknown>, key: string): GeminiSettings {
  const schemas = optionalString(raw.toolSchemas, `${key}.toolSchemas`);
  if (schemas !== undefined && !(TOOL_SCHEMAS as readonly string[]).includes(schemas))
    throw new ConfigError(`${key}.toolSchemas`, `must be ${TOOL_SCHEMAS.join(' or ')}`);
  optionalBoolean(raw.thinkingLevels, `${key}.thinkingLevels`);
  return checkRemoteSettings(raw, key) as GeminiSettings;
}

/** The settings `dialect-proxy fields` and `translate --to` assume. */
export const GEMINI_DEFAULT_SETTINGS: GeminiSettings = { kind: 'gemini', url: 'http://backend.invalid/v1beta' };
