/**
 * The mistakes of a new user's first hour (issue 25), each answered with what to fix, in the
 * caller's dialect: a backend `url` without /v1 (the upstream's 404 is a 502 naming the backend,
 * the URL and the fix, logged as a backend failure; an unknown model at the backend stays the
 * caller's 404), a model no route serves (the routes are listed), a field the backend refuses
 * (the refusal names dropUnsupported), a pool with no replica up (every replica named; /healthz
 * degraded but 200), a dry run's x-dialect-backend; a body sent to another dialect's endpoint
 * (the refusal says where it goes), an unknown URL (the URL meant; every 404 logged).
 */
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startMockReplica, type MockReplica } from '../helpers/mock-replicas.js';
import { chatAnswer, completionAnswer } from '../helpers/responses-fixtures.js';

const FAST = {
  timeouts: { connectMs: 300, firstByteMs: 1000, idleMs: 1000, totalMs: 3000 },
  retries: { attempts: 2, initialDelayMs: 1, maxDelayMs: 5 },
};

describe("a new user's mistakes", () => {
  let upstream: MockUpstream;
  let replicas: MockReplica[];
  let proxy: RunningServer;
  let root: string;
  const logs: Record<string, unknown>[] = [];

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(proxy.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const chat = (model: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'Hi' }], ...extra }, headers);
  const messages = (model: string, extra: Record<string, unknown> = {}) =>
    post(
      '/v1/messages',
      { model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }], ...extra },
      { 'anthropic-version': '2023-06-01' },
    );
  /** The log lines of one request, by its id. */
  const logsOf = (requestId: string) => logs.filter((line) => line.requestId === requestId);

  beforeAll(async () => {
    // A vLLM-like server: its API under /v1; anything else a FastAPI 404; an unknown model its own 404.
    upstream = await startMockUpstream((request) => {
      if (!request.path.startsWith('/v1/')) return { status: 404, json: { detail: 'Not Found' } };
      if ((request.body as { model?: string }).model === 'llama-9')
        return {
          status: 404,
          json: { object: 'error', message: 'The model `llama-9` does not exist.', type: 'NotFoundError', param: null, code: 404 },
        };
      if (request.path === '/v1/completions') return { json: completionAnswer('ok') };
      return { json: chatAnswer({ content: 'ok' }) };
    });
    root = upstream.url.replace(/\/v1$/, '');
    replicas = await Promise.all(['a', 'b'].map(startMockReplica));
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    const config = loadConfig({
      backends: {
        novone: { kind: 'vllm', url: root },
        vllm: { kind: 'vllm', url: upstream.url },
        strict: { kind: 'openai', url: upstream.url },
        base: { kind: 'vllm', url: upstream.url, speaks: ['completions'] },
        templated: { kind: 'vllm', url: upstream.url, speaks: ['completions'], chatTemplate: 'chatml' },
        pool: {
          kind: 'vllm',
          urls: replicas.map(({ url }) => url),
          health: { path: '/health', intervalMs: 20, timeoutMs: 200, failures: 1 },
          ...FAST,
        },
      },
      routes: [
        { model: 'wrong-base', backend: 'novone' },
        { model: 'llama-*', backend: 'vllm' },
        { model: 'gpt-*', backend: 'strict' },
        { model: 'pooled', backend: 'pool' },
        { model: 'base-model', backend: 'base' },
        { model: 'templated-model', backend: 'templated' },
      ],
    });
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ json: true, stream: sink }) });
    await proxy.proxy.ready;
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
    await Promise.all(replicas.map((replica) => replica.close()));
  });

  describe('a backend url without /v1', () => {
    test("the upstream's 404 for the endpoint is a 502 naming the backend, the URL it tried and the fix, logged as a warning", async () => {
      const response = await chat('wrong-base', {}, { 'x-request-id': 'no-v1' });
      expect(response.status).toBe(502);
      expect(response.headers.get('x-dialect-backend')).toBe('novone');
      expect(await response.json()).toEqual({
        error: {
          message: `Backend "novone" answered HTTP 404 (Not Found) for POST ${root}/chat/completions: no such endpoint there, so the request never reached a model. Its url probably needs to end in /v1 (${root}/v1).`,
          type: 'upstream_error',
          param: null,
          code: 'upstream_endpoint_not_found',
        },
      });
      expect(logsOf('no-v1')).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          message: 'backend failed',
          backend: 'novone',
          status: 502,
          reason: 'upstream_endpoint_not_found',
        }),
      );
    });

    test("the same in Anthropic's shape", async () => {
      const response = await messages('wrong-base');
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        type: 'error',
        error: {
          type: 'api_error',
          message: expect.stringMatching(/^Backend "novone" answered HTTP 404 .*Its url probably needs to end in \/v1/),
        },
      });
    });

    test("an unknown model at a backend that answers 404 naming it stays the caller's 404, logged at info", async () => {
      const response = await chat('llama-9', {}, { 'x-request-id': 'unknown-at-backend' });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: { message: 'The model `llama-9` does not exist.', type: 'not_found_error', param: null, code: null },
      });
      expect(logsOf('unknown-at-backend').map(({ level }) => level)).toEqual(['info']);
    });
  });

  describe('a model no route serves', () => {
    const served =
      'Served here: `wrong-base`, `llama-*`, `gpt-*`, `pooled`, `base-model`, `templated-model` (GET /v1/models lists the models).';

    test('the 404 lists the route patterns (OpenAI shape)', async () => {
      const response = await chat('mistral-7b');
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: {
          message: `The model \`mistral-7b\` does not exist or no route serves it. ${served}`,
          type: 'invalid_request_error',
          param: 'model',
          code: 'model_not_found',
        },
      });
    });

    test("and in Anthropic's shape", async () => {
      const response = await messages('claude-sonnet-4-5');
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        type: 'error',
        error: { type: 'not_found_error', message: `The model \`claude-sonnet-4-5\` does not exist or no route serves it. ${served}` },
      });
    });
  });

  describe('a field the backend refuses names the setting that would drop it instead', () => {
    const hint = 'set dropUnsupported: true on the backend to drop it with a warning instead';

    test('OpenAI chat', async () => {
      const response = await chat('gpt-4o', { top_k: 5 });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: {
          message: `top_k is not supported by this backend (backend "strict", kind openai; ${hint}).`,
          type: 'invalid_request_error',
          param: 'top_k',
          code: 'unsupported_parameter',
        },
      });
    });

    test('Fireworks completions, with its detail list', async () => {
      const response = await post('/v1/completions', { model: 'gpt-4o', prompt: 'Hi', top_k: 5 });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { message: string; param: string }; detail: { loc: unknown[]; msg: string }[] };
      expect(body.error).toMatchObject({ param: 'top_k', message: expect.stringContaining(hint) });
      expect(body.detail).toEqual([expect.objectContaining({ loc: ['body', 'top_k'], msg: expect.stringContaining(hint) })]);
    });

    test('OpenAI Responses', async () => {
      const response = await post('/v1/responses', { model: 'llama-3', input: 'Hi', text: { verbosity: 'low' } });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: {
          message: expect.stringMatching(
            new RegExp(`^text.verbosity is not supported by this backend \\(backend "vllm", kind vllm; ${hint}\\)\\.$`),
          ),
          type: 'invalid_request_error',
          param: 'text.verbosity',
          code: 'unsupported_parameter',
        },
      });
    });

    test('Anthropic Messages', async () => {
      const response = await messages('gpt-4o', { top_k: 5 });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: `top_k is not supported by this backend (backend "strict", kind openai; ${hint}).`,
        },
      });
    });
  });

  describe("a body sent to another dialect's endpoint says where it goes", () => {
    test.each([
      [
        '/v1/chat/completions',
        { model: 'llama-3', input: 'Hi', instructions: 'Be brief', max_output_tokens: 16 },
        'OpenAI Responses',
        '/v1/responses',
      ],
      [
        '/v1/chat/completions',
        { model: 'llama-3', max_tokens: 16, system: 'Be brief', messages: [{ role: 'user', content: 'Hi' }] },
        'Anthropic Messages',
        '/v1/messages',
      ],
      [
        '/v1/responses',
        { model: 'llama-3', messages: [{ role: 'user', content: 'Hi' }] },
        'OpenAI Chat Completions',
        '/v1/chat/completions',
      ],
      ['/v1/messages', { model: 'llama-3', prompt: 'Hi', max_tokens: 16 }, 'OpenAI/Fireworks Completions', '/v1/completions'],
    ])('%s given a body for %#', async (path, body, title, right) => {
      const response = await post(path, body, { 'anthropic-version': '2023-06-01' });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { message: string } };
      expect(error.message).toMatch(
        new RegExp(`^This looks like an ${title.replace('/', '\\/')} request: send it to ${right} \\(${path} takes `),
      );
    });

    test('a body of the right dialect with a wrong field gets no such hint', async () => {
      const response = await chat('llama-3', { max_output_tokens: 16 });
      const { error } = (await response.json()) as { error: { message: string } };
      expect(error.message).not.toContain('This looks like');
    });
  });

  describe('an unknown URL', () => {
    test.each([
      ['/v1/v1/messages', '/v1/messages'],
      ['/chat/completions', '/v1/chat/completions'],
      ['/api/v1/chat/completions', '/v1/chat/completions'],
      ['/v1/v1/messages/count_tokens', '/v1/messages/count_tokens'],
    ])('%s: a 404 that names %s, and a log line with the path', async (path, meant) => {
      const response = await post(path, { model: 'llama-3' });
      expect(response.status).toBe(404);
      const { error } = (await response.json()) as { error: { message: string } };
      expect(error.message).toContain(`Did you mean ${meant}?`);
      expect(logs).toContainEqual(expect.objectContaining({ message: 'unknown url', path, meant }));
    });

    test('a path like no known one: the plain 404, still logged', async () => {
      const response = await fetch(`${proxy.url}/nothing/here`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Unknown request URL: GET /nothing/here.');
      expect(logs).toContainEqual(expect.objectContaining({ message: 'unknown url', path: '/nothing/here' }));
    });
  });

  test('a dry run names its backend in x-dialect-backend, as a real answer does (accepted or refused)', async () => {
    const dry = { 'x-dialect-dry-run': '1' };
    const accepted = await chat('gpt-4o', {}, dry);
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('x-dialect-backend')).toBe('strict');
    const rejected = await chat('gpt-4o', { top_k: 5 }, dry);
    expect(rejected.status).toBe(400);
    expect(rejected.headers.get('x-dialect-backend')).toBe('strict');
  });

  test('chat rendered with ChatML that nobody chose is a warning, on the answer and in the dry run, never lossless', async () => {
    const guess =
      'messages was sent as a prompt rendered with the ChatML chat template, a guess (no chatTemplate configured for backend "base", none from the model)';
    const answered = await chat('base-model');
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-dialect-warnings')).toBe(guess);
    const dry = (await (await chat('base-model', {}, { 'x-dialect-dry-run': '1' })).json()) as Record<string, unknown>;
    expect(dry).toMatchObject({
      verdict: 'lossy',
      warnings: [guess],
      changes: [
        { field: 'messages', action: 'converted', to: 'prompt', lossy: true, reason: expect.stringContaining('a guess') },
        { field: 'stop', action: 'converted', lossy: false },
      ],
    });
    // Configured by name: the operator's choice.
    const chosen = await chat('templated-model');
    expect(chosen.headers.get('x-dialect-warnings')).toBeNull();
    const chosenDry = (await (await chat('templated-model', {}, { 'x-dialect-dry-run': '1' })).json()) as Record<string, unknown>;
    expect(chosenDry).toMatchObject({ verdict: 'lossless', warnings: [] });
  });

  test('a pool with no replica up: /healthz says degraded (still 200), and the 502 names every replica tried', async () => {
    const health = async () => {
      const response = await fetch(`${proxy.url}/healthz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
    await Promise.all(replicas.map((replica) => replica.stop()));
    const deadline = Date.now() + 3000;
    while ((await health()).body.status !== 'degraded' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const [a, b] = replicas.map(({ url }) => url);
    expect(await health()).toEqual({
      status: 200,
      body: { status: 'degraded', unavailable: [{ backend: 'pool', replicas: { [a]: 'down', [b]: 'down' } }] },
    });

    const response = await chat('pooled', {}, { 'x-request-id': 'pool-down' });
    expect(response.status).toBe(502);
    const { error } = (await response.json()) as { error: { message: string; code: string } };
    expect(error.code).toBe('upstream_unreachable');
    expect(error.message).toMatch(
      /^Backend "pool": no replica could take the request \(none was in service, so each was tried anyway\)\. Tried /,
    );
    for (const url of [a, b]) expect(error.message).toContain(`${url} (connection refused; out of service: its health probe fails)`);
    expect(logsOf('pool-down')).toContainEqual(expect.objectContaining({ level: 'warn', message: 'backend failed', backend: 'pool' }));

    await Promise.all(replicas.map((replica) => replica.start()));
    const back = Date.now() + 3000;
    while ((await health()).body.status !== 'ok' && Date.now() < back) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
  });
});
