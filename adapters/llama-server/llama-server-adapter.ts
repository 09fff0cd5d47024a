/**
 * `kind: llama-server`: llama.cpp's own HTTP server, which speaks OpenAI's wire
 * on `/v1/chat/completions` and `/v1/completions` plus its sampling extras.
 * Capabilities are what it really honours (tools/server/README.md and
 * server-schema.cpp, checked against the captures in shared/captures/llama-server).
 */
import { LLAMA_SERVER_TOKEN_COUNT } from '../token-count-endpoint.js';
import type { Adapter, BackendCapabilities } from '../../src/backend/adapter.js';
import { ProxyError } from '../../src/errors/proxy-error.js';
import type { NeutralRequest } from '../../src/model/request.js';
import type { StreamBatches } from '../../src/model/stream-event.js';
import { createRemoteAdapter } from '../remote-adapter.js';
import type { AdapterSettings, RemoteBackendSettings } from '../remote-settings.js';
import { llamaServerTable } from './fields.js';
import { LlamaServerChunkReader } from './from-wire-chunks.js';
import { fromWireResult } from './from-wire-result.js';
import { refineError } from './refine-error.js';
import { toWireBody } from './to-wire-body.js';

export interface LlamaServerSettings extends RemoteBackendSettings {
  /**
   * The server renders chat with Jinja (`--jinja`, on by default in recent llama.cpp, off in the
   * captures' server), so chat `tools` work. Default false: without it tools are an HTTP 500.
   */
  jinja?: boolean;
}

/** `templateTools`: what the server's `/props` says of its template (`chat_template_caps.supports_tools`), once read. */
export function llamaServerCapabilities(settings: Partial<LlamaServerSettings>, templateTools?: boolean): BackendCapabilities {
  return {
    ...llamaServerTable({ jinja: settings.jinja, ...(templateTools !== undefined ? { templateTools } : {}) }),
    speaks: settings.speaks ?? ['completions', 'chat'],
    // `n_probs` has no cap of its own; 20 is OpenAI's, and what the proxy's config allows at most.
    maxTopLogprobs: settings.maxTopLogprobs ?? 20,
    efforts: new Set(),
  };
}

/**
 * @example
 * const local = createLlamaServerAdapter({ kind: 'llama-server', url: 'http://127.0.0.1:8089/v1', jinja: true }, { name: 'local' });
 * const result = await local.complete(request, { signal, requestId: 'req-1' });
 */
export function createLlamaServerAdapter(
  settings: AdapterSettings<LlamaServerSettings>,
  options: { name?: string; propsTtlMs?: number } = {},
): Adapter {
  let capabilities = llamaServerCapabilities(settings);
  const props = settings.jinja
    ? templateCaps(settings, options.propsTtlMs ?? PROPS_TTL_MS, (templateTools) => {
        capabilities = llamaServerCapabilities(settings, templateTools);
      })
    : undefined;
  const remote = createRemoteAdapter({
    name: options.name ?? 'llama-server',
    settings,
    capabilities,
    codec: {
      toWireBody: (request, { stream }) => toWireBody(request, { stream, jinja: settings.jinja }),
      fromWireResult,
      chunkReader: (request) => new LlamaServerChunkReader(request),
    },
    tokenCount: LLAMA_SERVER_TOKEN_COUNT,
  });
  return {
    ...remote,
    // What /props says of the template can change the table (tools): the plan reads it here.
    get capabilities() {
      return capabilities;
    },
    async start() {
      await remote.start?.();
      await props?.read();
    },
    async complete(request, context) {
      props?.refreshIfStale();
      try {
        return await remote.complete(request, context);
      } catch (error) {
        throw refined(error, request);
      }
    },
    stream: (request, context) => {
      props?.refreshIfStale();
      return refinedStream(remote.stream(request, context), request);
    },
  };
}

/** How long what `/props` said is trusted before it is read again (a server restarted with another model). */
const PROPS_TTL_MS = 60_000;

/**
 * llama-server's `GET /props` (beside `/v1`): whether the model's chat template takes
 * tools. Read at start and again, in the background, once it is older than the TTL;
 * a server that does not answer leaves the configured behaviour (`jinja`) in place.
 */
function templateCaps(
  settings: AdapterSettings<LlamaServerSettings>,
  ttlMs: number,
  update: (templateTools: boolean | undefined) => void,
): { read(): Promise<void>; refreshIfStale(): void } {
  const base = ((settings as { url?: string }).url ?? (settings as { urls?: string[] }).urls?.[0] ?? '')
    .replace(/\/+$/, '')
    .replace(/\/v1$/, '');
  const headers: Record<string, string> = { accept: 'application/json', ...settings.headers };
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  let readAt = 0;
  let reading: Promise<void> | undefined;
  const read = (): Promise<void> => {
    reading ??= (async () => {
      try {
        const response = await fetch(`${base}/props`, { headers, signal: AbortSignal.timeout(5_000) });
        if (!response.ok) return;
        const body = (await response.json()) as { chat_template_caps?: { supports_tools?: unknown } };
        const supports = body?.chat_template_caps?.supports_tools;
        update(typeof supports === 'boolean' ? supports : undefined);
      } catch {
        // Unreachable or not llama-server's /props: the configured behaviour stands.
      } finally {
        readAt = Date.now();
        reading = undefined;
      }
    })();
    return reading;
  };
  return {
    read,
    refreshIfStale: () => {
      if (Date.now() - readAt >= ttlMs && !reading) void read();
    },
  };
}

/** The stream with its error refined; an error ends the stream, so only a batch's last event can be one (the others pass as they are). */
async function* refinedStream(batches: StreamBatches, request: NeutralRequest): StreamBatches {
  try {
    for await (const batch of batches) {
      const last = batch[batch.length - 1];
      if (last?.type === 'error') batch[batch.length - 1] = { type: 'error', error: refineError(last.error, request) };
      yield batch;
    }
  } catch (error) {
    throw refined(error, request);
  }
}

function refined(error: unknown, request: NeutralRequest): unknown {
  return error instanceof ProxyError ? refineError(error, request) : error;
}
