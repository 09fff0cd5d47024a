/**
 * One undici Agent per backend: keep-alive connections reused across requests,
 * upstream errors mapped to ProxyError, and the caller's AbortSignal wired
 * straight into the request so an abort closes the upstream connection at once.
 */
import { Agent, type Dispatcher } from 'undici';
import { mapTransportError } from './map-transport-error.js';
import { mapUpstreamError } from './map-upstream-error.js';
import type { RemoteTimeouts } from './remote-settings.js';

export interface HttpClientOptions {
  /** Connecting, waiting for the headers, and the longest silence between body chunks. */
  timeouts: Pick<RemoteTimeouts, 'connectMs' | 'firstByteMs' | 'idleMs'>;
  /** Strings redacted from every error message (the backend's API key). */
  secrets?: readonly string[];
}

export interface PostJsonRequest {
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The response body: an async iterable of bytes with `text()`, `dump()` and `destroy()`. */
export type UpstreamBody = Dispatcher.ResponseData['body'];

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

export interface HttpClient {
  /** POSTs JSON. Resolves for 2xx/3xx; throws a ProxyError for an HTTP error or a transport failure. */
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

  return {
    async postJson({ url, body, headers = {}, signal }) {
      const target = new URL(url);
      let response: Dispatcher.ResponseData;
      try {
        response = await agent.request({
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
          signal,
        });
      } catch (error) {
        throw mapTransportError(error, { url, signal });
      }
      if (response.statusCode >= 400) {
        let text: string;
        try {
          text = await response.body.text();
        } catch (error) {
          throw mapTransportError(error, { url, signal });
        }
        throw mapUpstreamError({ status: response.statusCode, headers: response.headers, body: text, secrets });
      }
      return { status: response.statusCode, headers: response.headers, body: response.body };
    },
    close: () => agent.close(),
  };
}
