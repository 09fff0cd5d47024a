/**
 * What every remote adapter does the same way: pick the upstream endpoint, build
 * the headers, POST through the backend's keep-alive client, and read the answer
 * back, whole or as a stream. Each kind brings its wire codec (to-wire-body,
 * from-wire-result, from-wire-chunks) and its capabilities.
 */
import { upstreamBadResponse, upstreamStreamInterrupted } from '../src/errors/catalogue.js';
import { internalError, ProxyError } from '../src/errors/proxy-error.js';
import type { NeutralRequest } from '../src/model/request.js';
import type { NeutralResult } from '../src/model/result.js';
import type { StreamEvent } from '../src/model/stream-event.js';
import { SseDecoder, type SseMessage } from '../src/streaming/decode-sse.js';
import type { ChunkReader } from './chunk-reader.js';
import { AFFINITY_HEADERS, OPENAI_PATHS, type Adapter, type AdapterContext, type BackendCapabilities } from '../src/backend/adapter.js';
import { createConcurrencyLimit } from './concurrency-limit.js';
import { Deadline, type AbortSource } from './transport/deadline.js';
import { createHttpClient, type UpstreamResponse } from './transport/http-client.js';
import type { TokenCountEndpoint } from './token-count-endpoint.js';
import { createHealthProber, HEALTH_DEFAULTS } from './replica-health.js';
import { ReplicaPool } from './replica-pool.js';
import { PoolTries } from './pool-tries.js';
import type { FailedTry } from './retry-policy.js';
import { isRecord } from '../src/model/is-record.js';
import { connectionFailure, mapTransportError } from './map-transport-error.js';
import { mapErrorFrame } from './map-upstream-error.js';
import { secretsOf, withoutSecrets } from './mask-secrets.js';
import { REMOTE_DEFAULTS, type AdapterSettings, type RemoteBackendSettings } from './remote-settings.js';

export interface WireCodec {
  toWireBody(request: NeutralRequest, options: { stream: boolean }): Record<string, unknown>;
  fromWireResult(body: unknown, request: NeutralRequest): NeutralResult;
  chunkReader(request: NeutralRequest): ChunkReader;
  /** Headers of this request beyond the backend's own (Anthropic's betas the caller asked for); they replace those of the same name. */
  headers?(request: NeutralRequest): Record<string, string> | undefined;
  /** Where this request is posted under the base URL, where the path depends on it (Gemini: the model and whether it streams); else `paths`. */
  path?(request: NeutralRequest, stream: boolean): string;
}

export interface RemoteAdapterOptions {
  name: string;
  settings: AdapterSettings<RemoteBackendSettings>;
  capabilities: BackendCapabilities;
  codec: WireCodec;
  /** Where each endpoint is posted under the base URL, where the kind's are not OpenAI's (Anthropic: `/messages`). */
  paths?: Readonly<Record<'chat' | 'completions', string>>;
  /** What reports show for a stream, when not `paths`. */
  streamPaths?: Readonly<Record<'chat' | 'completions', string>>;
  /** Where the backend counts a prompt's tokens, where it can (token-count-endpoint.ts). */
  tokenCount?: TokenCountEndpoint;
  /** The kind's reading of its backend's errors (Anthropic's, Google's), applied to every error the adapter gives. */
  refineError?(error: ProxyError, request: NeutralRequest): ProxyError;
  /** Keys the kind sends in headers of its own (`x-api-key`, `x-goog-api-key`): masked in errors whatever their length. */
  secrets?: readonly string[];
}

/** What one request posts: its URL from a base URL (the backend's, or each replica's), its body, what it accepts back. */
interface Post {
  url(base: string): string;
  body: unknown;
  accept: string;
}

export function createRemoteAdapter({
  name,
  settings: config,
  capabilities,
  codec,
  paths = OPENAI_PATHS,
  streamPaths,
  tokenCount,
  refineError,
  secrets: ownSecrets = [],
}: RemoteAdapterOptions): Adapter {
  const timeouts = { ...REMOTE_DEFAULTS.timeouts, ...config.timeouts };
  const retries = { ...REMOTE_DEFAULTS.retries, ...config.retries };
  const secrets = [...new Set([...secretsOf(config), ...ownSecrets])];
  const client = createHttpClient({ timeouts, retries, secrets, backend: name });
  const limit =
    config.maxConcurrent === undefined
      ? undefined
      : createConcurrencyLimit(name, config.maxConcurrent, config.queueLimit ?? 16 * config.maxConcurrent);
  const fixedHeaders: Record<string, string> = {};
  for (const [key, value] of Object.entries(config.headers ?? {})) fixedHeaders[key.toLowerCase()] = value;
  if (config.apiKey) fixedHeaders.authorization = `Bearer ${config.apiKey}`;
  // A pool of replicas (`urls`): each try goes where the pool says (replica-pool.ts).
  const pool = config.urls ? new ReplicaPool(config.urls, { ejection: config.ejection ?? {} }) : undefined;
  const prober = pool && config.health ? createHealthProber(pool, { ...HEALTH_DEFAULTS, ...config.health }, fixedHeaders) : undefined;
  const base = (config.url ?? config.urls?.[0] ?? '').replace(/\/+$/, '');

  /** A generation: the endpoint the request is for, its wire body. */
  function generation(request: NeutralRequest, stream: boolean): Post {
    const endpoint = request.endpoint === 'chat' ? 'chat' : 'completions';
    if (!capabilities.speaks.includes(endpoint)) {
      throw internalError(`Backend "${name}" does not serve ${endpoint}; the request should have been translated first.`);
    }
    const path = codec.path?.(request, stream) ?? paths[endpoint];
    return {
      url: (at) => at + path,
      body: codec.toWireBody(request, { stream }),
      accept: stream ? 'text/event-stream' : 'application/json',
    };
  }

  /** The response, the URL that answered, and the release of its replica's count of requests outstanding (once the answer is read). */
  async function send(
    request: NeutralRequest,
    context: AdapterContext,
    signal: AbortSource,
    { url: urlOf, body, accept }: Post,
  ): Promise<{ response: UpstreamResponse; url: string; done(): void }> {
    const headers: Record<string, string> = { ...fixedHeaders, ...codec.headers?.(request), accept, 'x-request-id': context.requestId };
    for (const header of AFFINITY_HEADERS) {
      const value = context.headers?.[header];
      if (value) headers[header] = value;
    }
    const onRetry = context.retrying && (({ error }: FailedTry) => context.retrying?.(error));
    const trace = context.trace; // each try a span, its traceparent sent (src/telemetry/)
    if (!pool) {
      const url = urlOf(base);
      const response = await client.postJson({ url, body, headers, signal, trace, onRetry });
      return { response, url, done: () => undefined };
    }
    const tries = new PoolTries(pool, pool.plan(request.affinityKey), urlOf);
    try {
      const response = await client.postJson({
        url: tries.pick,
        body,
        headers,
        signal,
        onTry: tries.onTry,
        trace,
        onRetry,
      });
      return { response, url: tries.url, done: () => tries.release() };
    } catch (error) {
      tries.release();
      throw tries.failure(error, name);
    }
  }

  /** An error as the adapter gives it: read as the kind reads its backend's, its secrets masked. */
  const failure = (error: ProxyError, request: NeutralRequest) =>
    withoutSecrets(refineError ? refineError(error, request) : error, secrets);
  const masked = (error: unknown, request: NeutralRequest) => (error instanceof ProxyError ? failure(error, request) : error);

  /**
   * One exchange with the backend, under `timeouts.totalMs` and a `maxConcurrent` slot: `end()` frees
   * them, and the answering replica's count of requests outstanding, however the exchange ended.
   */
  async function open(request: NeutralRequest, context: AdapterContext): Promise<Exchange> {
    const deadline = withDeadline(context.signal, timeouts.totalMs);
    const release = await slot(deadline.signal).catch((error: unknown) => {
      deadline.clear();
      throw masked(error, request);
    });
    let done: () => void = () => undefined;
    return {
      signal: deadline.signal,
      async send(post) {
        const sent = await send(request, context, deadline.signal, post);
        done = sent.done;
        return sent;
      },
      end() {
        done();
        release();
        deadline.clear();
      },
    };
  }

  /** A slot under `maxConcurrent` (a no-op release without a limit). */
  async function slot(signal: AbortSource): Promise<() => void> {
    if (!limit) return () => undefined;
    try {
      return await limit.acquire(signal);
    } catch (error) {
      throw signal.aborted ? mapTransportError(error, { url: base, signal }) : error;
    }
  }

  async function readJson(response: UpstreamResponse, url: string, signal: AbortSource): Promise<unknown> {
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw interrupted(error, url, signal);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw upstreamBadResponse(`Backend "${name}" answered with a body that is not JSON.`);
    }
  }

  return {
    name,
    capabilities,
    models: config.models,
    paths,
    ...(streamPaths && { streamPaths }),
    toWire: (request) => codec.toWireBody(request, { stream: request.stream !== undefined }),
    ...(tokenCount && {
      // Posted as a generation is: to the pool's replica for the request, under maxConcurrent.
      async countTokens(request, context) {
        const exchange = await open(request, context);
        try {
          const body = tokenCount.body(codec.toWireBody(request, { stream: false }), request);
          const { response, url } = await exchange.send({ url: (at) => tokenCount.url(at, request), body, accept: 'application/json' });
          return tokenCount.read(await readJson(response, url, exchange.signal));
        } catch (error) {
          throw masked(error, request);
        } finally {
          exchange.end();
        }
      },
    }),
    async complete(request, context) {
      const exchange = await open(request, context);
      try {
        const { response, url } = await exchange.send(generation(request, false));
        return codec.fromWireResult(await readJson(response, url, exchange.signal), request);
      } catch (error) {
        throw masked(error, request);
      } finally {
        exchange.end();
      }
    },
    async *stream(request, context) {
      const exchange = await open(request, context);
      const { signal } = exchange;
      try {
        const { response, url } = await exchange.send(generation(request, true));
        context.accepted?.();
        try {
          if (/application\/json/i.test(String(response.headers['content-type'] ?? ''))) {
            // A JSON answer to a stream request is an error report (or a server that cannot stream).
            const body = await readJson(response, url, signal);
            yield [
              { type: 'error', error: failure(isRecord(body) && body.error ? mapErrorFrame(body, secrets) : notAStream(name), request) },
            ];
            return;
          }
          // Each packet is decoded and read in one synchronous step, and its events leave together.
          const decoder = new SseDecoder();
          const reader = codec.chunkReader(request);
          const read = (messages: readonly SseMessage[]): StreamEvent[] => {
            const events: StreamEvent[] = [];
            for (const message of messages) {
              reader.push(message, events);
              if (reader.ended) break;
            }
            // An error ends the stream, so only the last event can be one: read as the kind reads it, the upstream's words masked.
            const last = events[events.length - 1];
            if (last?.type === 'error') events[events.length - 1] = { type: 'error', error: failure(last.error, request) };
            return events;
          };
          for await (const bytes of response.body) {
            if (decoder.done) continue; // after [DONE]: read to the end, so the connection is kept alive
            const events = read(decoder.push(bytes));
            if (events.length > 0) yield events;
            if (reader.ended) return;
          }
          const events = read(decoder.finish());
          if (!reader.ended) reader.finish(events);
          if (events.length > 0) yield events;
        } catch (error) {
          yield [{ type: 'error', error: failure(interrupted(error, url, signal), request) }];
        } finally {
          // The consumer stopped early (client gone): close the upstream request now (a no-op once the body was read whole).
          response.body.destroy();
        }
      } catch (error) {
        throw masked(error, request);
      } finally {
        exchange.end();
      }
    },
    ...(prober ? { start: async () => prober.start() } : {}),
    close: async () => {
      await prober?.close();
      await client.close();
    },
    ...(limit || pool
      ? { stats: { ...(limit ? { queued: () => limit.queued } : {}), ...(pool ? { replicas: () => pool.stats() } : {}) } }
      : {}),
  };
}

interface Exchange {
  signal: AbortSource;
  /** Posts to the backend (a replica of the pool); the answering one is freed by `end()`. */
  send(post: Post): Promise<{ response: UpstreamResponse; url: string }>;
  end(): void;
}

/** `timeouts.totalMs` bounds the whole exchange, stream included (deadline.ts); the caller's signal still ends it at once. */
function withDeadline(signal: AbortSignal, ms: number | undefined): { signal: AbortSource; clear(): void } {
  if (!ms) return { signal, clear() {} };
  const deadline = new Deadline(signal, ms);
  return { signal: deadline, clear: () => deadline.clear() };
}

/** A connection that fails after the upstream answered 200 broke off a stream that had begun: say so, not "could not reach". */
function interrupted(error: unknown, url: string, signal: AbortSource): ProxyError {
  const mapped = mapTransportError(error, { url, signal });
  if (mapped.code !== 'upstream_unreachable') return mapped;
  return upstreamStreamInterrupted(new URL(url).host, connectionFailure(error) ?? 'the connection failed', error);
}

function notAStream(name: string): ProxyError {
  return upstreamBadResponse(`Backend "${name}" answered a stream request with a JSON body.`);
}
