/**
 * Where a remote backend counts a request's prompt tokens with its own tokenizer,
 * without generating (`POST /v1/messages/count_tokens` asks): llama.cpp's server
 * at `/v1/chat/completions/input_tokens` (the chat template applied, as for a real
 * request) and `/tokenize`, vLLM at `/tokenize` (it applies the chat template to
 * `messages` itself). Each kind that has one declares it; the others answer with
 * an estimate (src/pipeline/count-tokens.ts).
 */
import type { NeutralRequest } from '../src/model/request.js';
import { isRecord } from '../src/model/is-record.js';

export interface TokenCountEndpoint {
  /** The URL to post to, from the backend's base URL (which ends in `/v1`). */
  url(base: string, request: NeutralRequest): string;
  /** What to post, from the body the request would be sent as. */
  body(wire: Readonly<Record<string, unknown>>, request: NeutralRequest): Record<string, unknown>;
  /** The count in the answer; undefined when the answer has none. */
  read(answer: unknown): number | undefined;
}

/** The server's root: its tokenizer endpoints are not under `/v1`. */
const rootOf = (base: string) => base.replace(/\/v1\/?$/, '');

const countIn = (answer: unknown, key: string): number | undefined =>
  isRecord(answer) && typeof answer[key] === 'number' ? answer[key] : undefined;

const tokensIn = (answer: unknown): number | undefined =>
  isRecord(answer) && Array.isArray(answer.tokens) ? answer.tokens.length : undefined;

/** llama.cpp's server: a chat body counted as it would be templated; a prompt tokenized as it is. */
export const LLAMA_SERVER_TOKEN_COUNT: TokenCountEndpoint = {
  url: (base, request) => (request.endpoint === 'chat' ? `${base}/chat/completions/input_tokens` : `${rootOf(base)}/tokenize`),
  body: (wire, request) => {
    if (request.endpoint !== 'chat') return { content: wire.prompt, add_special: true, parse_special: true };
    const { stream: _stream, stream_options: _options, ...counted } = wire;
    return counted;
  },
  read: (answer) => countIn(answer, 'input_tokens') ?? tokensIn(answer),
};

/** vLLM: `/tokenize` takes the chat request's messages and tools (the generation prompt added), or the prompt. */
export const VLLM_TOKEN_COUNT: TokenCountEndpoint = {
  url: (base) => `${rootOf(base)}/tokenize`,
  body: (wire, request) =>
    request.endpoint === 'chat'
      ? { model: wire.model, messages: wire.messages, ...(wire.tools ? { tools: wire.tools } : {}), add_generation_prompt: true }
      : { model: wire.model, prompt: wire.prompt },
  read: (answer) => countIn(answer, 'count') ?? tokensIn(answer),
};
