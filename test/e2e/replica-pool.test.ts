/**
 * A remote backend with `urls`: three mock replicas of one model server and two
 * proxy instances with the same config, in this one process, sharing nothing.
 * The same affinity key lands on the same replica through either proxy; 1000
 * keys spread within 20 % of even; a replica that stops takes only its own keys
 * away, and they return when it is back; without a key, the replica with the
 * fewest requests outstanding serves; a failed try goes to the key's next
 * choice; /metrics shows each replica's state.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { rankReplicas } from '../../adapters/rendezvous-hash.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockReplica, type MockReplica } from '../helpers/mock-replicas.js';

const FAST = {
  timeouts: { connectMs: 500, firstByteMs: 2000, idleMs: 2000, totalMs: 5000 },
  retries: { attempts: 2, initialDelayMs: 1, maxDelayMs: 20 },
};

let replicas: MockReplica[] = [];
const servers: RunningServer[] = [];

beforeAll(async () => {
  replicas = await Promise.all(['a', 'b', 'c'].map(startMockReplica));
});

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
});

beforeEach(() => {
  for (const replica of replicas) replica.reset();
});

afterEach(async () => {
  for (const replica of replicas) replica.releaseHeld();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function proxy(pool: Record<string, unknown> = {}): Promise<RunningServer> {
  const config = loadConfig({
    server: { warmUpMs: 0 }, // a server per test: the warm-up is test/e2e/warm-up.test.ts's
    backends: { pool: { kind: 'openai', urls: replicas.map(({ url }) => url), ...FAST, ...pool } },
    routes: [{ model: '*', backend: 'pool' }],
  });
  const running = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
  await running.proxy.ready;
  servers.push(running);
  return running;
}

async function chat(
  server: RunningServer,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...body }),
  });
  return { status: response.status, text: await response.text() };
}

/** Sends a request for `key` (as x-session-affinity) and says which replica served it. */
async function servedBy(server: RunningServer, key: string): Promise<string> {
  const { status, text } = await chat(server, {}, { 'x-session-affinity': key });
  expect(status).toBe(200);
  const served = /from (\w+)/.exec(text)?.[1];
  if (!served) throw new Error(`no replica named in ${text}`);
  return served;
}

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T, R>(items: readonly T[], width: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index], index);
      }
    }),
  );
  return results;
}

const nameOf = (url: string) => replicas.find((replica) => replica.url === url)?.name;
const firstChoice = (key: string, among = replicas) =>
  nameOf(
    rankReplicas(
      key,
      among.map(({ url }) => url.replace(/\/+$/, '')),
    )[0],
  );

async function metricsOf(
  server: RunningServer,
): Promise<{ name: string; metrics: { labels?: Record<string, string>; value?: string }[] }[]> {
  return parsePrometheusTextFormat(await (await fetch(`${server.url}/metrics`)).text()) as never;
}

async function replicaState(server: RunningServer, replica: MockReplica): Promise<string | undefined> {
  const family = (await metricsOf(server)).find(({ name }) => name === 'dialect_proxy_replica_state');
  return family?.metrics.find(({ labels, value }) => labels?.replica === replica.url && value === '1')?.labels?.state;
}

async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('session affinity over a pool of replicas', () => {
  it('sends the same key to the same replica through either of two proxies, its rendezvous choice', async () => {
    const [one, two] = [await proxy(), await proxy()];
    const keys = Array.from({ length: 30 }, (_, i) => `session-${i}`);
    for (const key of keys) {
      const viaOne = await servedBy(one, key);
      const viaTwo = await servedBy(two, key);
      expect([key, viaTwo]).toEqual([key, viaOne]);
      expect([key, viaOne]).toEqual([key, firstChoice(key)]);
    }
    // Every replica got some: the keys are spread, not all on the first URL.
    expect(replicas.map(({ keys: served }) => served.length).every((count) => count > 0)).toBe(true);
  });

  it('reads the key from x-session-affinity, then x-multi-turn-session-id, then prompt_cache_key, then user', async () => {
    const server = await proxy();
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      ['k-header', { prompt_cache_key: 'k-cache', user: 'k-user' }, { 'x-session-affinity': 'k-header' }],
      ['k-multi', { prompt_cache_key: 'k-cache', user: 'k-user' }, { 'x-multi-turn-session-id': 'k-multi' }],
      ['k-cache', { prompt_cache_key: 'k-cache', user: 'k-user' }, {}],
      ['k-user', { user: 'k-user' }, {}],
    ];
    for (const [key, body, headers] of cases) {
      const { status, text } = await chat(server, body, headers);
      expect(status).toBe(200);
      expect([key, /from (\w+)/.exec(text)?.[1]]).toEqual([key, firstChoice(key)]);
    }
  });

  it('spreads 1000 keys within 20 % of even', async () => {
    const [one, two] = [await proxy(), await proxy()];
    const keys = Array.from({ length: 1000 }, (_, i) => `user-${i * 7919}`);
    await inBatches(keys, 16, (key, i) => servedBy(i % 2 === 0 ? one : two, key));
    const counts = replicas.map(({ keys: served }) => served.length);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1000);
    for (const count of counts) {
      expect(count).toBeGreaterThanOrEqual((1000 / 3) * 0.8);
      expect(count).toBeLessThanOrEqual((1000 / 3) * 1.2);
    }
  });

  it('moves only the keys of a replica that stops, and they return once it is back', async () => {
    // Passive health only: connection failures eject b for 100-200 ms; a request after that tries it again.
    const pool = { ejection: { failures: 1, baseMs: 100, maxMs: 200 } };
    const [one, two] = [await proxy(pool), await proxy(pool)];
    const keys = Array.from({ length: 60 }, (_, i) => `conversation-${i}`);
    const before = await inBatches(keys, 8, (key) => servedBy(one, key));
    const [, b] = replicas;
    expect(before.filter((name) => name === 'b').length).toBeGreaterThan(5);

    await b.stop();
    for (const server of [one, two]) {
      const during = await inBatches(keys, 8, (key) => servedBy(server, key)); // every one a 200: a refused try goes to the next choice
      keys.forEach((key, i) => {
        if (before[i] !== 'b') expect([key, during[i]]).toEqual([key, before[i]]);
        else
          expect([key, during[i]]).toEqual([
            key,
            firstChoice(
              key,
              replicas.filter((replica) => replica !== b),
            ),
          ]);
      });
    }

    await b.start();
    await new Promise((resolve) => setTimeout(resolve, 250)); // the longest ejection is over
    for (const server of [one, two]) {
      const after = await inBatches(keys, 8, (key) => servedBy(server, key));
      expect(after).toEqual(before);
    }
  });

  it("retries a failed try on the key's next choice, and ejects a replica that keeps failing", async () => {
    const server = await proxy({ ejection: { failures: 3, baseMs: 60_000, maxMs: 60_000 } });
    const key = 'retry-me';
    const order = rankReplicas(
      key,
      replicas.map(({ url }) => url),
    ).map(nameOf);
    const first = replicas.find(({ name }) => name === order[0]) as MockReplica;
    first.mode = { status: 503 };
    for (let i = 0; i < 3; i++) expect(await servedBy(server, key)).toBe(order[1]);
    expect(first.count).toBeGreaterThanOrEqual(3);
    expect(await replicaState(server, first)).toBe('ejected');
    // Ejected: the key goes straight to its next choice; the others stay where they were.
    const seen = first.count;
    expect(await servedBy(server, key)).toBe(order[1]);
    expect(first.count).toBe(seen);
    const ejections = (await metricsOf(server)).find(({ name }) => name === 'dialect_proxy_replica_ejections_total');
    expect(ejections?.metrics.find(({ labels }) => labels?.replica === first.url)?.value).toBe('1');
  });
});

describe('without an affinity key', () => {
  it('sends each request to the replica with the fewest requests outstanding', async () => {
    const server = await proxy();
    for (const replica of replicas) replica.mode = 'hold';
    const held = [chat(server), chat(server), chat(server)];
    await until(() => replicas.every(({ count }) => count === 1));
    const [a, b, c] = replicas;
    // b and c finish theirs; a still has one outstanding, so nothing more goes to a.
    b.mode = 'ok';
    c.mode = 'ok';
    b.releaseHeld();
    c.releaseHeld();
    await until(async () => {
      const family = (await metricsOf(server)).find(({ name }) => name === 'dialect_proxy_replica_outstanding');
      return (
        family?.metrics.find(({ labels }) => labels?.replica === a.url)?.value === '1' &&
        family.metrics.filter(({ value }) => value === '0').length === 2
      );
    });
    for (let i = 0; i < 20; i++) expect((await chat(server, { stream: i % 2 === 0 })).status).toBe(200);
    expect([a.count, b.count, c.count]).toEqual([1, 11, 11]);
    a.releaseHeld();
    await Promise.all(held);
  });
});

describe('active health', () => {
  it('marks a replica whose probe fails down, and back in service when it answers again', async () => {
    const server = await proxy({ health: { path: '/health', intervalMs: 30, timeoutMs: 200, failures: 1 } });
    const [, b] = replicas;
    await until(() => b.probes > 0);
    expect(await replicaState(server, b)).toBe('healthy');
    await b.stop();
    await until(async () => (await replicaState(server, b)) === 'down');
    const keys = Array.from({ length: 30 }, (_, i) => `probe-${i}`);
    for (const key of keys)
      expect(await servedBy(server, key)).toBe(
        firstChoice(
          key,
          replicas.filter((replica) => replica !== b),
        ),
      );
    await b.start();
    await until(async () => (await replicaState(server, b)) === 'healthy');
    for (const key of keys) expect(await servedBy(server, key)).toBe(firstChoice(key));
  });
});

describe('the pass-through to a pool', () => {
  it('relays other /v1 paths to the replicas in turn', async () => {
    const config = loadConfig({
      backends: { pool: { kind: 'openai', urls: replicas.map(({ url }) => url) } },
      passthrough: 'pool',
      routes: [{ model: '*', backend: 'pool' }],
    });
    const server = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
    servers.push(server);
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${server.url}/v1/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"input":"x"}',
      });
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(replicas.map(({ count }) => count)).toEqual([2, 2, 2]);
  });
});
