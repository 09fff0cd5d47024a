/** Upstream HTTP errors and transport failures -> the ProxyError the caller sees. */
import { mapErrorFrame, mapUpstreamError } from '../../../adapters/map-upstream-error.js';
import { mapTransportError } from '../../../adapters/map-transport-error.js';
import type { ProxyError } from '../../../src/errors/proxy-error.js';
import { capture, withCaptures } from './capture-request.js';

const KEY = 'sk-proj-SECRETSECRET';

/** The parts of a ProxyError a caller sees. */
const seen = (error: ProxyError) => ({
  status: error.status,
  type: error.type,
  param: error.param,
  code: error.code,
  message: error.message,
  ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
});

describe('mapUpstreamError', () => {
  test('400 keeps the upstream message, param and code', () => {
    const body = JSON.stringify({
      error: {
        message: "Invalid 'max_completion_tokens': too large.",
        type: 'invalid_request_error',
        param: 'max_completion_tokens',
        code: 'integer_above_max_value',
      },
    });
    expect(seen(mapUpstreamError({ status: 400, body }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      param: 'max_completion_tokens',
      code: 'integer_above_max_value',
      message: "Invalid 'max_completion_tokens': too large.",
    });
  });

  test('401/403: the proxy credentials failed: 502, and the key never shows', () => {
    const body = JSON.stringify({
      error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' },
    });
    for (const status of [401, 403]) {
      const error = mapUpstreamError({ status, body, secrets: [KEY] });
      expect(seen(error)).toEqual({
        status: 502,
        type: 'upstream_error',
        param: null,
        code: 'upstream_auth_failed',
        message: `The upstream backend rejected the proxy's credentials (HTTP ${status}); check the backend's apiKey.`,
      });
      expect(JSON.stringify(error.toBody())).not.toContain('SECRET');
    }
  });

  test('a key quoted in any other message is redacted', () => {
    const error = mapUpstreamError({ status: 500, body: `proxy said: bad header Bearer ${KEY}`, secrets: [KEY] });
    expect(error.message).toBe('The upstream backend failed with HTTP 500: proxy said: bad header Bearer [redacted]');
  });

  test('429 with retry-after (seconds, HTTP date, or retry-after-ms)', () => {
    const body = JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } });
    expect(seen(mapUpstreamError({ status: 429, headers: { 'retry-after': '7' }, body }))).toEqual({
      status: 429,
      type: 'rate_limit_error',
      param: null,
      code: 'rate_limit_exceeded',
      message: 'Rate limit reached',
      retryAfterSeconds: 7,
    });
    expect(mapUpstreamError({ status: 429, headers: { 'retry-after-ms': '1500' }, body }).retryAfterSeconds).toBe(2);
    const date = new Date(Date.now() + 30_000).toUTCString();
    expect(mapUpstreamError({ status: 429, headers: { 'retry-after': date }, body }).retryAfterSeconds).toBeGreaterThanOrEqual(28);
    expect(mapUpstreamError({ status: 429, body: '' }).retryAfterSeconds).toBeUndefined();
  });

  test("Google's error model: RetryInfo's retryDelay is the 429's wait, BadRequest's first field violation its param", () => {
    const exhausted = {
      error: {
        code: 429,
        message: 'You exceeded your current quota.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '36.5s' },
        ],
      },
    };
    expect(mapUpstreamError({ status: 429, body: JSON.stringify(exhausted) }).retryAfterSeconds).toBe(37);
    // A header, when there is one, has the last word.
    expect(mapUpstreamError({ status: 429, headers: { 'retry-after': '2' }, body: JSON.stringify(exhausted) }).retryAfterSeconds).toBe(2);
    const invalid = {
      error: {
        code: 400,
        message: 'Invalid value at \'generation_config.temperature\' (TYPE_FLOAT), "hot"',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'generation_config.temperature', description: 'Invalid value' }],
          },
        ],
      },
    };
    expect(mapUpstreamError({ status: 400, body: JSON.stringify(invalid) })).toMatchObject({ param: 'generation_config.temperature' });
  });

  test('404, 413, 422 (FastAPI detail kept), 408/504 timeouts', () => {
    expect(
      seen(
        mapUpstreamError({
          status: 404,
          body: JSON.stringify({
            error: { message: 'The model `x` does not exist', type: 'invalid_request_error', code: 'model_not_found' },
          }),
        }),
      ),
    ).toEqual({
      status: 404,
      type: 'not_found_error',
      param: null,
      code: 'model_not_found',
      message: 'The model `x` does not exist',
    });
    expect(seen(mapUpstreamError({ status: 413, body: '<html>Request Entity Too Large</html>' }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      param: null,
      code: 'request_too_large',
      message: 'The upstream backend found the request too large: <html>Request Entity Too Large</html>',
    });
    const detail = [{ loc: ['body', 'top_k'], msg: 'Input should be less than or equal to 100', type: 'less_than_equal' }];
    const unprocessable = mapUpstreamError({ status: 422, body: JSON.stringify({ detail }) });
    expect(seen(unprocessable)).toEqual({
      status: 422,
      type: 'invalid_request_error',
      param: 'top_k',
      code: null,
      message: 'body.top_k: Input should be less than or equal to 100',
    });
    expect(unprocessable.details).toEqual(detail);
    expect(mapUpstreamError({ status: 504, body: 'gateway timeout' })).toMatchObject({ status: 504, type: 'timeout_error' });
  });

  test("a 404 that names the model is the request's; any other is the endpoint's: a 502 naming the backend, the URL and the fix", () => {
    // Bodies of an unknown model, as each server says it: still a 404 for the caller.
    const modelBodies = [
      { error: { message: 'The model `gpt-9` does not exist or you do not have access to it.', code: 'model_not_found' } },
      { object: 'error', message: 'The model `llama-9` does not exist.', type: 'NotFoundError', param: null, code: 404 },
      { type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' } },
      {
        error: {
          object: 'error',
          type: 'invalid_request_error',
          code: 'NOT_FOUND',
          message: 'Model not found, inaccessible, and/or not deployed',
        },
      },
      { error: 'model "qwen9" not found, try pulling it first' },
    ];
    for (const body of modelBodies) {
      const url = 'http://gpu-1:8000/v1/chat/completions';
      expect(mapUpstreamError({ status: 404, body: JSON.stringify(body), url, backend: 'gpu' })).toMatchObject({
        status: 404,
        type: 'not_found_error',
      });
    }
    // Bodies of a path the server does not serve: FastAPI (vLLM), llama-server, OpenAI, Express, nginx, nothing at all.
    const pathBodies = [
      JSON.stringify({ detail: 'Not Found' }),
      JSON.stringify({ error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }),
      JSON.stringify({
        error: { message: 'Invalid URL (POST /chat/completions)', type: 'invalid_request_error', param: null, code: null },
      }),
      '<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot POST /chat/completions</pre></body></html>',
      '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>',
      '',
    ];
    for (const body of pathBodies) {
      const error = mapUpstreamError({ status: 404, body, url: 'http://user:pw@gpu-1:8000/chat/completions?x=1', backend: 'gpu' });
      expect(seen(error)).toMatchObject({ status: 502, type: 'upstream_error', param: null, code: 'upstream_endpoint_not_found' });
      expect(error.message).toMatch(
        /^Backend "gpu" answered HTTP 404 \(.+\) for POST http:\/\/gpu-1:8000\/chat\/completions: no such endpoint there, so the request never reached a model\. Its url probably needs to end in \/v1 \(http:\/\/gpu-1:8000\/v1\)\.$/,
      );
      expect(error.message).not.toMatch(/user|pw|x=1|<|>/);
    }
    expect(mapUpstreamError({ status: 404, body: pathBodies[4], url: 'http://gpu-1:8000/chat/completions' }).message).toContain(
      '(404 Not Found 404 Not Found nginx)',
    );
    // With /v1 already there: the server does not serve this endpoint (a chat-only server asked for completions).
    expect(mapUpstreamError({ status: 404, body: pathBodies[0], url: 'http://gpu-1:8000/v1/completions', backend: 'gpu' }).message).toBe(
      'Backend "gpu" answered HTTP 404 (Not Found) for POST http://gpu-1:8000/v1/completions: no such endpoint there, so the request never reached a model. Check its url, and its speaks: this server may not serve /completions.',
    );
    // Anthropic's base path under a prefix.
    expect(
      mapUpstreamError({
        status: 404,
        body: '{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}',
        url: 'https://gw.example/anthropic/messages',
      }).message,
    ).toMatch(
      /^The upstream backend answered HTTP 404 \(Not Found\) .*Its url probably needs to end in \/v1 \(https:\/\/gw\.example\/anthropic\/v1\)\.$/,
    );
  });

  test("a 404 from a path that is not a generation's (a tokenizer's): the general hint, no guessed url", () => {
    const url = 'http://gpu-1:8080/v1/chat/completions/input_tokens';
    const error = mapUpstreamError({ status: 404, body: 'File Not Found', url, backend: 'llama' });
    expect(error.message).toContain("Check the backend's url.");
    expect(error.message).not.toContain('needs to end in /v1');
  });

  test('5xx is a 502 naming the upstream status and message; bodies that are not JSON are handled', () => {
    // 503 and Anthropic's 529: up but too busy now, which a caller may wait out (Anthropic's callers get a 529 for it).
    expect(seen(mapUpstreamError({ status: 503, body: 'Service Unavailable' }))).toEqual({
      status: 502,
      type: 'upstream_error',
      param: null,
      code: 'upstream_overloaded',
      message: 'The upstream backend failed with HTTP 503: Service Unavailable',
    });
    expect(mapUpstreamError({ status: 529, body: 'Overloaded' }).code).toBe('upstream_overloaded');
    expect(mapUpstreamError({ status: 500, body: 'boom' }).code).toBe('upstream_error');
    expect(mapUpstreamError({ status: 500, body: '' }).message).toBe(
      'The upstream backend failed with HTTP 500: HTTP 500 with no error message',
    );
    expect(mapUpstreamError({ status: 502, body: JSON.stringify({ error: 'bad gateway' }) }).message).toBe(
      'The upstream backend failed with HTTP 502: bad gateway',
    );
  });

  test('an error frame inside a body takes its status from error.code', () => {
    expect(seen(mapErrorFrame({ error: { code: 400, message: 'bad n', type: 'invalid_request_error' } }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      param: null,
      code: null,
      message: 'bad n',
    });
    // A frame comes inside a 200 answer: its message claims no HTTP status.
    expect(mapErrorFrame({ error: { message: 'boom', code: 'internal' } })).toMatchObject({
      status: 502,
      code: 'upstream_error',
      message: 'The upstream backend answered with an error: boom',
    });
    expect(mapErrorFrame({ error: { code: 503 } }).message).toBe('The upstream backend answered with an error: an error with no message');
    expect(mapErrorFrame({ error: { code: 504, message: 'slow' } }).message).toBe('The upstream backend timed out: slow');
  });
});

describe('mapTransportError', () => {
  const url = 'https://user:pass@api.example.com/v1/chat/completions';
  test('refused, DNS, reset: 502 naming the host only', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(seen(mapTransportError(refused, { url }))).toEqual({
      status: 502,
      type: 'upstream_error',
      param: null,
      code: 'upstream_unreachable',
      message: 'Could not reach the upstream backend api.example.com: connection refused.',
    });
    expect(mapTransportError(Object.assign(new Error('x'), { code: 'ENOTFOUND' }), { url }).message).toBe(
      'Could not reach the upstream backend api.example.com: host name not found.',
    );
    expect(mapTransportError(new Error('other side closed', { cause: { code: 'UND_ERR_SOCKET' } }), { url }).status).toBe(502);
  });

  test('timeouts: 504', () => {
    expect(
      seen(mapTransportError(Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), { url })),
    ).toEqual({
      status: 504,
      type: 'timeout_error',
      param: null,
      code: 'upstream_timeout',
      message: 'The upstream backend api.example.com timed out: no response headers in time.',
    });
  });

  test("aborts: the caller's (499) or a deadline's (504)", () => {
    const caller = new AbortController();
    caller.abort();
    expect(mapTransportError(new Error('aborted'), { url, signal: caller.signal })).toMatchObject({
      status: 499,
      code: 'client_closed_request',
    });
    const deadline = new AbortController();
    deadline.abort(new DOMException('timed out', 'TimeoutError'));
    expect(mapTransportError(new Error('aborted'), { url, signal: deadline.signal })).toMatchObject({ status: 504, type: 'timeout_error' });
  });
});

withCaptures('mapUpstreamError on real llama-server error bodies', () => {
  test('numeric error codes are statuses, not codes', () => {
    expect(seen(mapUpstreamError({ status: 400, body: capture('error_cmpl_n_over_slots.response.json') }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      param: null,
      code: null,
      message: "Field 'n': Value must be between 1 <= value <= 4, but got 8",
    });
    expect(seen(mapUpstreamError({ status: 500, body: capture('chat_tools_auto.response.json') }))).toEqual({
      status: 502,
      type: 'upstream_error',
      param: null,
      code: 'upstream_error',
      message: 'The upstream backend failed with HTTP 500: tools param requires --jinja flag',
    });
  });
});
