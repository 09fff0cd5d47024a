/**
 * `kind: llama-server`: llama.cpp's own HTTP server, which speaks OpenAI's wire
 * on `/v1/chat/completions` and `/v1/completions` plus its sampling extras.
 * Capabilities are what it really honours (tools/server/README.md and
 * server-schema.cpp, checked against the captures in shared/captures/llama-server).
 */
import { ProxyError } from '../../src/errors/proxy-error.js';
import type { NeutralRequest } from '../../src/model/request.js';
import type { StreamEvent } from '../../src/model/stream-event.js';
import type { Adapter, BackendCapabilities, Feature } from '../adapter.js';
import { createRemoteAdapter } from '../remote-adapter.js';
import type { RemoteBackendConfig } from '../remote-backend-config.js';
import { fromWireChunks } from './from-wire-chunks.js';
import { fromWireResult } from './from-wire-result.js';
import { refineError } from './refine-error.js';
import { toWireBody } from './to-wire-body.js';

/**
 * Honoured on both endpoints. Not here, and why:
 *  - echo: ignored without a word (200, nothing echoed: capture cmpl_echo_logprobs2).
 *  - tools: an HTTP 500 unless the server runs with `--jinja` (capture chat_tools_auto); see `jinja`.
 *  - contextOverflowError: it never fails a prompt + max_tokens that overflows, it stops
 *    at the slot's context (finish_reason length); only a prompt alone too long is an error.
 *  - reasoningEffort/Budget/History: `reasoning_effort` and budgets only reach a
 *    thinking-capable Jinja template (chat_template_kwargs), so nothing is promised.
 *  - returnTokenIds, streamTokenIds: token ids only come from its native `/completion`
 *    (`return_tokens`), never from the OpenAI endpoints.
 *  - prediction, images (top-level), rawOutput, samplingMask, promptCacheIsolationKey,
 *    metadata, store, serviceTier, audio: no such fields.
 */
export const LLAMA_SERVER_FEATURES: readonly Feature[] = [
  'topK', 'minP', 'typicalP', 'repetitionPenalty', 'mirostat', 'logitBias', 'seed', 'ignoreEos',
  'logprobs', 'jsonObject', 'jsonSchema', 'grammar',
];

/** What `/v1/completions` adds: token-id prompts (used verbatim, no BOS added: capture cmpl_prompt_token_ids_no_bos) and batches. */
export const LLAMA_SERVER_COMPLETIONS_FEATURES: readonly Feature[] = ['tokenIdPrompt', 'promptBatch'];

/** The remote settings this kind reads (RemoteBackendConfig's `kind` does not name it). */
export type LlamaServerConfig = Omit<RemoteBackendConfig, 'kind'>;

export interface LlamaServerOptions {
  name?: string;
  /**
   * The server renders chat with Jinja (`--jinja`, on by default in recent llama.cpp, off in the
   * captures' server), so chat `tools` work. Default false: without it tools are an HTTP 500.
   */
  jinja?: boolean;
}

export function llamaServerCapabilities(config: LlamaServerConfig, options: LlamaServerOptions = {}): BackendCapabilities {
  const speaks = config.speaks ?? ['completions', 'chat'];
  return {
    speaks,
    features: new Set<Feature>([
      ...LLAMA_SERVER_FEATURES,
      ...(speaks.includes('completions') ? LLAMA_SERVER_COMPLETIONS_FEATURES : []),
      ...(options.jinja ? ['tools' as const] : []),
    ]),
    // `n_probs` has no cap of its own; 20 is OpenAI's, and what the proxy's config allows at most.
    maxTopLogprobs: config.maxTopLogprobs ?? 20,
    // `n` runs in parallel slots (seed + j per choice); more than the slot count (`-np`) is a 400 naming `n`.
    nativeChoices: true,
    efforts: new Set(),
    passthroughFields: new Set(),
  };
}

/**
 * @example
 * const local = createLlamaServerAdapter({ url: 'http://127.0.0.1:8089/v1' }, { name: 'local' });
 * const result = await local.complete(request, { signal, requestId: 'req-1' });
 */
export function createLlamaServerAdapter(config: LlamaServerConfig, options: LlamaServerOptions = {}): Adapter {
  const remote = createRemoteAdapter({
    name: options.name ?? 'llama-server',
    // The remote adapter reads url, apiKey, headers and timeoutMs, never `kind`.
    config: config as RemoteBackendConfig,
    capabilities: llamaServerCapabilities(config, options),
    codec: {
      toWireBody: (request, { stream }) => toWireBody(request, { stream, jinja: options.jinja }),
      fromWireResult,
      fromWireChunks,
    },
  });
  return {
    name: remote.name,
    capabilities: remote.capabilities,
    toWire: remote.toWire,
    async complete(request, context) {
      try {
        return await remote.complete(request, context);
      } catch (error) {
        throw refined(error, request);
      }
    },
    stream: (request, context) => refinedStream(remote.stream(request, context), request),
    close: () => remote.close?.() ?? Promise.resolve(),
  };
}

async function* refinedStream(events: AsyncIterable<StreamEvent>, request: NeutralRequest): AsyncGenerator<StreamEvent> {
  try {
    for await (const event of events) yield event.type === 'error' ? { type: 'error', error: refineError(event.error, request) } : event;
  } catch (error) {
    throw refined(error, request);
  }
}

function refined(error: unknown, request: NeutralRequest): unknown {
  return error instanceof ProxyError ? refineError(error, request) : error;
}
