/**
 * `kind: llama-cpp`: GGUF models run inside the proxy (node-llama-cpp in a
 * worker process). The worker generates from prompts; for chat, the plan renders
 * the messages with the model's own template (GGUF `tokenizer.chat_template`,
 * exposed as `chatTemplate`; a configured template wins; ChatML when neither
 * exists) and splits reasoning and tool calls out of the text.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Adapter, AdapterContext, BackendCapabilities, ChatTemplate } from '../../src/backend/adapter.js';
import { toProxyError } from '../../src/errors/proxy-error.js';
import type { NeutralRequest } from '../../src/model/request.js';
import type { NeutralResult } from '../../src/model/result.js';
import type { StreamBatches, StreamEventOf } from '../../src/model/stream-event.js';
import { eachEvent } from '../../src/streaming/stream-batches.js';
import { collectResult } from './collect-result.js';
import { llamaCppTable, TEMPLATE_EFFORTS } from './fields.js';
import type { LlamaCppSettings } from './settings.js';
import { toGenerateRequest } from './to-generate-request.js';
import { toStreamEvents } from './to-stream-events.js';
import { llamaOptionSources, type LlamaBackendOptions } from './types.js';
import { createLlamaHost, type LlamaHost } from './shared-host.js';

/** The worker's capabilities; a chat template that switches thinking adds the efforts it takes. */
export function llamaCppCapabilities(
  options: { templateThinks?: boolean; thinkTags?: { open: string; close: string } } = {},
): BackendCapabilities {
  return {
    ...llamaCppTable(options),
    speaks: ['completions'],
    maxTopLogprobs: 20,
    efforts: new Set(options.templateThinks ? TEMPLATE_EFFORTS : []),
  };
}

export type LlamaCppAdapterSettings = Omit<LlamaCppSettings, 'kind'> &
  Partial<Pick<LlamaBackendOptions, 'cacheDir' | 'showProgress' | 'gpu' | 'downloadStallMs'>>;

/**
 * @example
 * const adapter = createLlamaCppAdapter('local', { model: 'builtin', contextSize: 2048, parallel: 4 });
 * const result = await adapter.complete(request, { signal, requestId: 'r1' });
 */
export function createLlamaCppAdapter(name: string, settings: LlamaCppAdapterSettings): LlamaCppAdapter {
  return new LlamaCppAdapter(name, settings);
}

export class LlamaCppAdapter implements Adapter {
  capabilities: BackendCapabilities;
  /** Its own engine, or (under `--workers`) the relay to the one the primary process owns (shared-host.ts). */
  readonly host: LlamaHost;
  chatTemplate?: ChatTemplate;
  models?: readonly string[];
  readonly stats = { restarts: () => this.host.restarts };

  /** Until the model is loaded (which also names it in `models`), its own template (GGUF `tokenizer.chat_template`) is not known. */
  get chatTemplatePending(): boolean {
    return this.models === undefined;
  }

  constructor(
    readonly name: string,
    private readonly settings: LlamaCppAdapterSettings,
  ) {
    this.host = createLlamaHost(name, engineOptions(settings));
    this.capabilities = llamaCppCapabilities(definedOnly({ thinkTags: settings.thinkTags }));
  }

  /** Loads the model now (otherwise the first request does) and learns its chat template. */
  async start(): Promise<void> {
    const info = await this.host.start();
    this.models = [modelName(this.settings.model, info)];
    if (!info.chatTemplate) return;
    this.chatTemplate = definedOnly({ source: info.chatTemplate, bosToken: info.bosToken, eosToken: info.eosToken });
    // Templates that read `enable_thinking` or `reasoning_effort` (Qwen3, GPT-OSS, ...) can switch thinking.
    if (/\b(enable_thinking|reasoning_effort)\b/.test(info.chatTemplate)) {
      this.capabilities = llamaCppCapabilities(definedOnly({ templateThinks: true, thinkTags: this.settings.thinkTags }));
    }
  }

  toWire(request: NeutralRequest): Record<string, unknown> {
    return { ...this.generateRequest(request) };
  }

  private generateRequest(request: NeutralRequest) {
    const generate = toGenerateRequest(request, this.capabilities);
    const cap = this.settings.defaultMaxTokens;
    if (generate.maxTokens === undefined && cap !== undefined) {
      generate.maxTokens = cap;
      request.warnings.push(`max_tokens was sent as ${cap} (the backend's defaultMaxTokens): the request set none`);
    }
    return generate;
  }

  complete(request: NeutralRequest, context: AdapterContext): Promise<NeutralResult> {
    return collectResult(eachEvent(this.stream(request, context)), { logprobs: request.logprobs !== undefined });
  }

  /**
   * The prompt as the engine would read it: the chat template applied by the plan, tokenized by the model (BOS
   * counted as generation adds it). A prompt longer in bytes than the context holds is refused without tokenizing
   * (count_tokens then answers with its estimate); a long one waits its turn for the tokenizer (past the queue, a 429).
   */
  async countTokens(request: NeutralRequest, context: AdapterContext): Promise<number | undefined> {
    const { prompt, addBos } = this.generateRequest(request);
    if (typeof prompt !== 'string') return prompt.length;
    if (!this.host.tokenize) return undefined;
    const tokens = await this.host.tokenize(prompt, { special: true, signal: context.signal });
    const info = this.host.info;
    return tokens.length + ((addBos ?? info?.addBos) && info?.bosToken !== undefined ? 1 : 0);
  }

  close(): Promise<void> {
    return this.host.close();
  }

  /** One batch per event: the model makes them one at a time. */
  async *stream(request: NeutralRequest, context: AdapterContext): StreamBatches {
    const generateRequest = this.generateRequest(request);
    let started = false;
    // The generation as a child span of the request's, when tracing is on (src/telemetry/).
    const span = context.trace?.({});
    let failure: unknown;
    // Known before the first token: the answer's start says it (Anthropic's message_start.usage).
    let promptTokens: number | undefined;
    const onPrompt = (tokens: number) => (promptTokens = tokens);
    try {
      for await (const event of toStreamEvents(this.host.generate(generateRequest, context.signal), { onPrompt })) {
        if (span) {
          if (event.type === 'usage') span.usage(event.usage);
          else if (event.type === 'error') failure = event.error;
        }
        // Started only once the worker took the request: a 429 or a 400 before that stays an HTTP error.
        if (!started) {
          started = true;
          const start: StreamEventOf<'response-start'> = {
            type: 'response-start',
            id: `cmpl-${randomUUID()}`,
            model: request.model,
            created: Math.floor(Date.now() / 1000),
          };
          if (promptTokens !== undefined) start.usage = { promptTokens, completionTokens: 0, totalTokens: promptTokens };
          yield [start, event];
          continue;
        }
        yield [event];
      }
    } catch (error) {
      failure = error;
      if ((error as Error)?.name === 'AbortError') throw error;
      yield [{ type: 'error', error: toProxyError(error) }];
    } finally {
      span?.end(failure);
    }
  }
}

/** The engine's own options of a backend's settings (not the route-level ones such as chatTemplate). */
export function engineOptions(settings: LlamaCppAdapterSettings): LlamaBackendOptions {
  return Object.fromEntries(
    Object.keys(llamaOptionSources).flatMap((key) => {
      const value = settings[key as keyof LlamaBackendOptions];
      return value === undefined ? [] : [[key, value]];
    }),
  ) as unknown as LlamaBackendOptions;
}

/** The name `GET /v1/models` lists: `builtin`, else the GGUF's `general.name` (the worker falls back to the path), else the file name. */
function modelName(setting: string, info: { name: string; path: string }): string {
  if (setting === 'builtin') return 'builtin';
  return info.name && info.name !== info.path ? info.name : basename(info.path, '.gguf');
}

function definedOnly<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
