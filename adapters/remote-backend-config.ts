/** The configuration of one remote backend (`kind: openai` or `kind: fireworks`), as the config loader hands it over. */

export type RemoteEndpoint = 'chat' | 'completions';

/**
 * One remote backend.
 *
 * @example
 * const openai: RemoteBackendConfig = {
 *   kind: 'openai', url: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY, speaks: ['chat'],
 * };
 */
export interface RemoteBackendConfig {
  /** `openai`: strict OpenAI (fields OpenAI does not accept are never sent). `fireworks`: every Fireworks extension. */
  kind: 'openai' | 'fireworks' | 'llama-server' | 'vllm';
  /** Base URL up to and including the version, without the endpoint: `https://api.fireworks.ai/inference/v1`. */
  url: string;
  /** Sent as `authorization: Bearer <apiKey>`; never logged, never echoed in an error. */
  apiKey?: string;
  /** Upstream endpoints the backend serves. Default: `[chat]` for openai, `[completions, chat]` for fireworks. */
  speaks?: RemoteEndpoint[];
  /** The most top logprobs the backend returns per token. Default: 20 for openai, 5 for fireworks (`--max-logprobs`). */
  maxTopLogprobs?: number;
  /** When true, the plan strips features the backend lacks (with a warning) instead of rejecting the request. */
  dropUnsupported?: boolean;
  /** Extra headers sent with every upstream request (e.g. `OpenAI-Organization`). */
  headers?: Record<string, string>;
  /** Total time, in ms, for one exchange, stream included; also the longest wait for headers or between two chunks (300000 when unset). */
  timeoutMs?: number;
}
