/**
 * One undici Agent per backend: keep-alive connections reused across requests,
 * a timeout per phase, upstream errors mapped to ProxyError and retried as the
 * backend's `retries` say (retry-policy.ts; only here, before any byte of an
 * answer is read), and the caller's AbortSignal wired straight into the
 * request so an abort closes the upstream connection at once.
 */
import { Agent } from './undici-agent.js';
import { mapTransportError } from '../map-transport-error.js';
import { mapUpstreamError } from '../map-upstream-error.js';
import type { RemoteTimeouts } from '../remote-settings.js';
import type { AbortSource } from './deadline.js';
import { UpstreamExchange, type UpstreamHead } from './upstream-exchange.js';
import type { WorkSpan } from '../../src/backend/adapter.js';
import { retryAfterMs, retryDelay, sleep, type FailedTry, type RemoteRetries } from '../retry-policy.js';

const NEVER = new AbortController().signal;
const utf8 = new TextEncoder();
/**
 * The body's bytes, made once for every try (undici makes them from a string on each). TextEncoder takes
 * 40% less time than Buffer.from on an agent's 50 KB body, and more on a small one, which Buffer.from cuts from its pool.
 */
const bytesOf = (text: string): Uint8Array => (text.length > 16_384 ? utf8.encode(text) : Buffer.from(text));

export interface HttpClientOptions {
  /** Connecting, waiting for the headers, and the longest silence between body chunks. */
  timeouts: Pick<RemoteTimeouts, 'connectMs' | 'firstByteMs' | 'idleMs'>;
  /** Tries again on the failures retry-policy.ts names; none when unset. */
  retries?: RemoteRetries;
  /** Strings redacted from every error message (the backend's API key). */
  secrets?: readonly string[];
  /** The backend's name, for errors that name it (a 404 for the endpoint itself). */
  backend?: string;
}

export interface PostJsonRequest {
  /**
   * Where to send it; or, for a pool of replicas, where each try goes (`attempt` 0 is the first):
   * a retry that goes to a URL not tried yet goes at once, one that goes back to a URL waits its back-off.
   */
  url: string | ((attempt: number) => string);
  body: unknown;
  headers?: Record<string, string>;
  signal?: AbortSource;
  /** Told before each retry, with the failure of the try before. */
  onRetry?(failed: FailedTry): void;
  /** A span for each try, when the request is traced: its headers carry the trace upstream, it ends with the exchange. */
  trace?(work: { url: string }): WorkSpan;
  /** Told after each try (not when the caller's signal ended it), with its answer or its failure. */
  onTry?(url: string, outcome: UpstreamResponse | FailedTry): void;
}

/** The response body: its bytes as they come, or `text()`; `destroy()` stops reading (and closes the connection if unread). */
export interface UpstreamBody extends AsyncIterable<Buffer> {
  text(): Promise<string>;
  destroy(): void;
  readonly readableEnded: boolean;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

export interface HttpClient {
  /** POSTs JSON, retrying as configured. Resolves for 2xx/3xx; throws a ProxyError for an HTTP error or a transport failure. */
  postJson(request: PostJsonRequest): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

/**
 * @example
 * const client = createHttpClient({ timeouts: REMOTE_DEFAULTS.timeouts, secrets: [apiKey] });
 * const { body } = await client.postJson({ url: 'https://api.openai.com/v1/chat/completions', body: wire, headers, signal });
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { connectMs, firstByteMs, idleMs } = options.timeouts;
  // undici keeps sockets alive by default; its 4 s idle default also honours the server's Keep-Alive hint.
  const agent = new Agent({ connect: { timeout: connectMs }, headersTimeout: firstByteMs, bodyTimeout: idleMs });
  const secrets = (options.secrets ?? []).filter((secret) => secret.length > 0);

  /** One try: the response (2xx, 3xx), or what failed. */
  async function send(
    target: URL,
    payload: Uint8Array,
    headers: Record<string, string>,
    signal: AbortSource | undefined,
    span?: WorkSpan,
  ): Promise<UpstreamResponse | FailedTry> {
    const exchange = new UpstreamExchange(signal, span);
    agent.dispatch(
      {
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
      },
      exchange,
    );
    let head: UpstreamHead;
    try {
      head = await exchange.head;
    } catch (error) {
      return { error: mapTransportError(error, { url: target.href, signal }) };
    }
    const { status, headers: answered } = head;
    if (status < 400) return { status, headers: answered, body: exchange };
    let text: string;
    try {
      text = await exchange.text();
    } catch (error) {
      return { error: mapTransportError(error, { url: target.href, signal }) };
    }
    const failed: FailedTry = {
      status,
      error: mapUpstreamError({
        status,
        headers: answered,
        body: text,
        secrets,
        url: target.href,
        ...(options.backend === undefined ? {} : { backend: options.backend }),
      }),
    };
    const asked = retryAfterMs(answered);
    if (asked !== undefined) failed.retryAfterMs = asked;
    return failed;
  }

  return {
    async postJson({ url, body, headers = {}, signal, onRetry, onTry, trace }) {
      const pick = typeof url === 'string' ? () => url : url;
      const payload = bytesOf(JSON.stringify(body));
      const tried = new Set<string>();
      let current = pick(0);
      for (let attempt = 0; ; attempt++) {
        tried.add(current);
        const span = trace?.({ url: current });
        const outcome = await send(new URL(current), payload, span ? { ...headers, ...span.headers } : headers, signal, span);
        if (!signal?.aborted) onTry?.(current, outcome);
        if (!('error' in outcome)) return outcome;
        let delay = options.retries && !signal?.aborted ? retryDelay(outcome, attempt, options.retries) : undefined;
        if (delay === undefined) throw outcome.error;
        current = pick(attempt + 1);
        if (!tried.has(current)) delay = 0; // another replica: nothing to back off from
        onRetry?.(outcome);
        try {
          await sleep(delay, signal ?? NEVER);
        } catch (error) {
          throw mapTransportError(error, { url: current, signal });
        }
      }
    },
    close: () => agent.close(),
  };
}
