/**
 * `kind: anthropic` settings: the remote settings every kind takes (url or
 * urls, apiKey, retries, timeouts, maxConcurrent...) and Anthropic's own.
 * `speaks` and `maxTopLogprobs` are not taken: the Messages API is chat only
 * and returns no logprobs.
 */
import { ConfigError, integerField, optionalBoolean, optionalString, stringList } from '../../src/config/config-checks.js';
import { checkRemoteSettings, NOWHERE, REMOTE_KEYS, type RemoteBackendSettings } from '../remote-settings.js';

/**
 * @example
 * const claude: AnthropicSettings = {
 *   kind: 'anthropic', url: 'https://api.anthropic.com/v1', apiKey: process.env.ANTHROPIC_API_KEY, adaptiveThinking: true,
 * };
 */
export interface AnthropicSettings extends RemoteBackendSettings {
  /** Sent as `anthropic-version`. Default ANTHROPIC_DEFAULTS.anthropicVersion. */
  anthropicVersion?: string;
  /** Beta features, sent comma-joined as `anthropic-beta` (e.g. `context-management-2025-06-27`); a Messages caller's own betas join them. */
  betas?: string[];
  /** `max_tokens` when the caller gives none (Anthropic requires it); a thinking budget is added on top. */
  defaultMaxTokens?: number;
  /**
   * The backend's models think adaptively: an effort goes as `thinking: {type: adaptive}` +
   * `output_config.effort`, and a thinking budget as the effort the ladder gives it (Claude Opus 4.7
   * and later take no budget). Without it, an effort goes as a budget from the ladder.
   */
  adaptiveThinking?: boolean;
}

export const ANTHROPIC_DEFAULTS = {
  anthropicVersion: '2023-06-01',
  /** Within every Claude model's output limit (Claude 3 Haiku's is 4096). */
  defaultMaxTokens: 4096,
} as const;

/** Not taken: the Messages API serves chat only, and returns no logprobs. */
const NOT_TAKEN = new Set(['speaks', 'maxTopLogprobs']);

export const ANTHROPIC_KEYS: readonly string[] = [
  ...REMOTE_KEYS.filter((key) => !NOT_TAKEN.has(key)),
  'anthropicVersion',
  'betas',
  'defaultMaxTokens',
  'adaptiveThinking',
];

export function checkAnthropicSettings(raw: Record<string, unknown>, key: string): AnthropicSettings {
  const version = optionalString(raw.anthropicVersion, `${key}.anthropicVersion`);
  if (version !== undefined && version.trim() === '')
    throw new ConfigError(`${key}.anthropicVersion`, 'must not be empty, e.g. 2023-06-01');
  if (raw.betas !== undefined) {
    const betas = stringList(raw.betas, `${key}.betas`);
    betas.forEach((beta, i) => {
      if (!/^[\w.-]+$/.test(beta))
        throw new ConfigError(`${key}.betas[${i}]`, 'must be a beta name such as context-management-2025-06-27 (no commas or spaces)');
    });
  }
  integerField(raw, 'defaultMaxTokens', key, 1);
  optionalBoolean(raw.adaptiveThinking, `${key}.adaptiveThinking`);
  return checkRemoteSettings(raw, key) as AnthropicSettings;
}

/** The settings `dialect-proxy fields` and `translate --to` assume. */
export const ANTHROPIC_DEFAULT_SETTINGS: AnthropicSettings = { kind: 'anthropic', url: NOWHERE };
