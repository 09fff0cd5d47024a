/**
 * The redis response store against a real redis-server (started here on a free port): two proxy
 * processes and a `--workers 2` one share it. A conversation created on one continues, is read,
 * referenced, listed and deleted on the others; a background run started on one is seen completed,
 * or cancelled, from another (the running one aborts its upstream request); a replica killed
 * mid-run leaves its run failed once its lease lapses; every key expires; another API key sees a
 * 404 exactly like a missing id; with Redis stopped, store-bound requests are a 503
 * `store_unavailable` within the command timeout while the rest are served, and the store works
 * again once Redis is back.
 */
import { Redis } from 'ioredis';
import { spawnProxy, type ProxyProcess } from '../helpers/proxy-process.js';
import { servingWorkers } from '../helpers/serving-workers.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const KEY_A = 'key-a-0123456789';
const KEY_B = 'key-b-0123456789';
const PREFIX = 'test-proxy:';
const MAX_AGE_SECONDS = 600;
const COMMAND_TIMEOUT_MS = 1000;

const completion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});

/** The last user message of an upstream request: the tests steer the mock with it. */
function lastUserText(request: RecordedRequest): string {
  const messages = (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const content = messages.filter((message) => message.role === 'user').at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: { message: string; type: string; param: unknown; code: unknown } };
  ms: number;
}

async function call(base: string, method: string, path: string, { key = KEY_A, body }: { key?: string; body?: unknown } = {}) {
  const started = Date.now();
  // A connection of its own each time: under --workers the primary hands each to a worker in turn.
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', connection: 'close' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, ms: Date.now() - started } as Answer;
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('responses.store kind redis, shared by several proxies', () => {
  let redis: RedisServer;
  let upstream: MockUpstream;
  let inspect: Redis;
  let one: ProxyProcess;
  let two: ProxyProcess;
  let workers: ProxyProcess;
  const config = () => ({
    server: { host: '127.0.0.1', port: 0, apiKeys: [KEY_A, KEY_B], logLevel: 'info', shutdownGraceMs: 500 },
    backends: { up: { kind: 'openai', url: upstream.url } },
    routes: [{ model: '*', backend: 'up' }],
    responses: {
      store: {
        kind: 'redis',
        url: redis.url,
        keyPrefix: PREFIX,
        maxAgeSeconds: MAX_AGE_SECONDS,
        commandTimeoutMs: COMMAND_TIMEOUT_MS,
        connectTimeoutMs: 1000,
        runLeaseSeconds: 2,
      },
    },
  });

  beforeAll(async () => {
    redis = await startRedisServer();
    inspect = new Redis(redis.url, { maxRetriesPerRequest: null });
    inspect.on('error', () => undefined);
    // "slow" hangs until the proxy aborts it; anything else answers at once, echoing the question.
    upstream = await startMockUpstream((request) => {
      const text = lastUserText(request);
      return text.includes('slow') ? { hang: true } : { json: completion(`answer to ${text}`) };
    });
    // One after the other: on a busy machine three starting at once may outlast the helper's wait.
    one = await spawnProxy(config());
    two = await spawnProxy(config());
    workers = await spawnProxy(config(), ['--workers', '2']);
    await workers.waitForLine(/backends ready in all 2 workers/);
  }, 60_000);

  afterAll(async () => {
    for (const proxy of [one, two, workers]) proxy?.child.kill('SIGKILL');
    await Promise.all([one, two, workers].map((proxy) => proxy?.exited));
    inspect?.disconnect();
    await upstream?.close();
    await redis?.stop();
  });

  test('a conversation made on one instance is read, continued, referenced, listed and deleted on the others', async () => {
    const first = await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'capital of France', store: true } });
    expect(first.status).toBe(200);
    const id = first.body.id as string;
    // Right after the create, on every other process.
    for (const base of [two.url, workers.url, workers.url]) {
      const read = await call(base, 'GET', `/v1/responses/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id, status: 'completed', store: true });
    }
    const firstItem = (first.body.output as { id: string }[])[0].id;

    const second = await call(workers.url, 'POST', '/v1/responses', {
      body: { model: 'm', input: 'and of Germany', previous_response_id: id },
    });
    expect(second.status).toBe(200);
    expect(upstream.requests.at(-1)?.body).toMatchObject({
      messages: [
        { role: 'user', content: 'capital of France' },
        { role: 'assistant', content: 'answer to capital of France' },
        { role: 'user', content: 'and of Germany' },
      ],
    });
    const listed = await call(two.url, 'GET', `/v1/responses/${second.body.id as string}/input_items`);
    expect(listed.status).toBe(200);
    expect((listed.body.data as unknown[]).length).toBe(3);

    // An item_reference to the first answer, resolved on yet another process.
    const third = await call(two.url, 'POST', '/v1/responses', {
      body: {
        model: 'm',
        input: [
          { type: 'item_reference', id: firstItem },
          { role: 'user', content: 'shorter' },
        ],
      },
    });
    expect(third.status).toBe(200);
    expect(upstream.requests.at(-1)?.body).toMatchObject({
      messages: [
        { role: 'assistant', content: 'answer to capital of France' },
        { role: 'user', content: 'shorter' },
      ],
    });

    expect((await call(two.url, 'DELETE', `/v1/responses/${id}`)).body).toEqual({ id, object: 'response', deleted: true });
    for (const base of [one.url, workers.url]) {
      const gone = await call(base, 'GET', `/v1/responses/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error?.code).toBe('response_not_found');
    }
  });

  test('--workers 2: a conversation continued turn by turn, whichever worker each turn reaches', async () => {
    let previous: string | undefined;
    for (let turn = 0; turn < 6; turn++) {
      const answer = await call(workers.url, 'POST', '/v1/responses', {
        body: { model: 'm', input: `turn ${turn}`, ...(previous ? { previous_response_id: previous } : {}) },
      });
      expect(answer.status).toBe(200);
      previous = answer.body.id as string;
    }
    expect((upstream.requests.at(-1)?.body as { messages: unknown[] }).messages).toHaveLength(11); // five earlier turns, each a question and its answer, then this one
    await new Promise((resolve) => setTimeout(resolve, 100)); // the last log lines
    expect([...servingWorkers(workers)].sort()).toEqual([1, 2]);
  });

  test('every key the store writes expires within maxAgeSeconds', async () => {
    await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'keys', store: true } });
    const keys = await inspect.keys(`${PREFIX}*`);
    expect(keys.length).toBeGreaterThan(2);
    for (const key of keys) {
      const ttl = await inspect.pttl(key);
      expect([key, ttl > 0 && ttl <= MAX_AGE_SECONDS * 1000]).toEqual([key, true]);
    }
  });

  test("another API key gets exactly the 404 of an id that does not exist, for everything of another key's", async () => {
    const mine = await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'secret', store: true } });
    const id = mine.body.id as string;
    const item = (mine.body.output as { id: string }[])[0].id;
    const missing = 'resp_00000000000000000000000000000000';
    const asOther = (method: string, path: string, body?: unknown) => call(two.url, method, path, { key: KEY_B, body });
    const same = async (method: string, path: (id: string) => string, body?: (id: string) => unknown) => {
      const theirs = await asOther(method, path(id), body?.(id));
      const none = await asOther(method, path(missing), body?.(missing));
      expect(theirs.status).toBe(404);
      expect(JSON.stringify(theirs.body).replaceAll(id, missing)).toBe(JSON.stringify(none.body));
    };
    await same('GET', (x) => `/v1/responses/${x}`);
    await same('GET', (x) => `/v1/responses/${x}/input_items`);
    await same('DELETE', (x) => `/v1/responses/${x}`);
    await same('POST', (x) => `/v1/responses/${x}/cancel`);
    await same(
      'POST',
      () => '/v1/responses',
      (x) => ({ model: 'm', input: 'go on', previous_response_id: x }),
    );
    const reference = await asOther('POST', '/v1/responses', { model: 'm', input: [{ type: 'item_reference', id: item }] });
    expect(reference.status).toBe(404);
    expect(reference.body.error?.code).toBe('item_not_found');
    // And it is still there for its owner.
    expect((await call(two.url, 'GET', `/v1/responses/${id}`)).status).toBe(200);
  });

  test('a background run started on one instance is seen completed from the others', async () => {
    const queued = await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'in the background', background: true } });
    expect(queued.body).toMatchObject({ status: 'queued', background: true });
    const id = queued.body.id as string;
    const done = await until(
      () => call(two.url, 'GET', `/v1/responses/${id}`),
      (answer) => answer.body.status === 'completed',
    );
    expect(done.body.output_text ?? JSON.stringify(done.body.output)).toContain('answer to in the background');
    expect((await call(workers.url, 'GET', `/v1/responses/${id}`)).body.status).toBe('completed');
    // Over: a cancel now is refused, as for any response not running.
    expect((await call(workers.url, 'POST', `/v1/responses/${id}/cancel`)).status).toBe(400);
  });

  test('a background run is cancelled from another instance: the running one aborts its upstream request', async () => {
    const queued = await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'slow cancel', background: true } });
    const id = queued.body.id as string;
    await until(
      async () => upstream.requests.filter((request) => lastUserText(request) === 'slow cancel').length,
      (count) => count === 1,
    );
    // Seen running from elsewhere.
    expect((await call(workers.url, 'GET', `/v1/responses/${id}`)).body.status).toBe('queued');
    const cancelled = await call(two.url, 'POST', `/v1/responses/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id, status: 'cancelled' });
    await until(
      async () => upstream.aborted.filter((request) => lastUserText(request) === 'slow cancel').length,
      (count) => count === 1,
    );
    for (const base of [one.url, two.url, workers.url])
      expect((await call(base, 'GET', `/v1/responses/${id}`)).body.status).toBe('cancelled');
  });

  test('a replica killed mid-run leaves its background response failed once its lease lapses', async () => {
    const doomed = await spawnProxy(config());
    try {
      const queued = await call(doomed.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'slow doomed', background: true } });
      const id = queued.body.id as string;
      await until(
        async () => upstream.requests.some((request) => lastUserText(request) === 'slow doomed'),
        (seen) => seen,
      );
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      const failed = await until(
        () => call(two.url, 'GET', `/v1/responses/${id}`),
        (answer) => answer.body.status !== 'queued',
        10_000,
      );
      expect(failed.body).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
      expect((await call(one.url, 'GET', `/v1/responses/${id}`)).body.status).toBe('failed');
    } finally {
      doomed.child.kill('SIGKILL');
    }
  });

  test('Redis stopped: store-bound requests are a clean 503 within the command timeout, the rest are served; back once Redis is', async () => {
    const kept = await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'before', store: true } });
    const id = kept.body.id as string;
    await redis.stop();
    try {
      const bound = [
        await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'keep me', store: true } }),
        await call(two.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'go on', previous_response_id: id } }),
        await call(workers.url, 'GET', `/v1/responses/${id}`),
        await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'later', background: true } }),
      ];
      console.log(`store-bound 503s after: ${bound.map(({ ms }) => `${ms} ms`).join(', ')}`);
      for (const answer of bound) {
        expect(answer.status).toBe(503);
        expect(answer.body.error).toEqual({
          message: expect.stringMatching(/response store is unavailable/),
          type: 'server_error',
          param: null,
          code: 'store_unavailable',
        });
        expect([answer.ms, answer.ms < COMMAND_TIMEOUT_MS + 2000]).toEqual([answer.ms, true]);
      }
      // Needing no store: served as usual.
      const unkept = await call(two.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'no store', store: false } });
      expect(unkept.status).toBe(200);
      // Leaving store out asks for nothing: answered at once, unkept, rather than after a timeout.
      const byDefault = await call(workers.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'by default' } });
      expect(byDefault.status).toBe(200);
      expect(byDefault.body.store).toBe(false);
      expect([byDefault.ms, byDefault.ms < COMMAND_TIMEOUT_MS]).toEqual([byDefault.ms, true]);
      const chat = await call(one.url, 'POST', '/v1/chat/completions', {
        body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(chat.status).toBe(200);
      const health = await fetch(`${one.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'degraded', store: 'degraded' });
      const metrics = await (await fetch(`${one.url}/metrics`)).text();
      expect(metrics).toMatch(/^dialect_proxy_response_store_errors_total\{operation="[a-z_]+",reason="(timeout|unavailable)"\} [1-9]/m);
      expect(metrics).toMatch(/^dialect_proxy_response_store_up 0$/m);
    } finally {
      await redis.start();
    }
    // Back on its own: every process reconnects.
    for (const base of [one.url, two.url, workers.url]) {
      await until(
        async () => (await (await fetch(`${base}/healthz`)).json()) as { store?: string },
        (health) => health.store === 'ok',
      );
    }
    const again = await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'after', store: true } });
    expect(again.status).toBe(200);
    expect((await call(two.url, 'GET', `/v1/responses/${again.body.id as string}`)).body.status).toBe('completed');
    expect(await (await fetch(`${two.url}/metrics`)).text()).toMatch(
      /^dialect_proxy_response_store_duration_seconds_count\{operation="get"\} [1-9]/m,
    );
    // The cancel channel is subscribed again (by the proxy, not by ioredis): a cancel from another instance still reaches the run.
    const queued = await call(one.url, 'POST', '/v1/responses', { body: { model: 'm', input: 'slow cancel after', background: true } });
    await until(
      async () => upstream.requests.filter((request) => lastUserText(request) === 'slow cancel after').length,
      (count) => count === 1,
    );
    expect((await call(two.url, 'POST', `/v1/responses/${queued.body.id as string}/cancel`)).status).toBe(200);
    await until(
      async () => upstream.aborted.filter((request) => lastUserText(request) === 'slow cancel after').length,
      (count) => count === 1,
    );
  }, 60_000);
});
