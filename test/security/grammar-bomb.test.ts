/**
 * Grammar bombs: a small request must not make the proxy build a grammar that
 * grows faster than the request ("Safe in front of untrusted callers", item 1).
 * Before the fix, a tool schema whose `type` lists k objects, nested nine deep,
 * made a grammar of k^9 rules (k=4: 53 MB in 2 s; k=6: out of memory), and a
 * custom tool's regex with 5,000 nested groups overflowed the stack (a 500).
 * Now each is a grammar within `limits.grammarBytes` built within
 * `limits.grammarMs`, or a 400 naming the caller's `tools`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFAULT_LIMITS } from '../../src/config/settings.js';
import { parseChatRequest } from '../../src/dialects/openai-chat/parse-request.js';
import { ProxyError } from '../../src/errors/proxy-error.js';
import { planRequest } from '../../src/pipeline/plan/plan.js';
import type { Backend } from '../../src/pipeline/plan/route-table.js';
import type { RunningServer } from '../../src/http/server.js';
import { defaultBackend } from '../../src/commands/translate.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

/**
 * What one plan may take. Bounded, a plan takes milliseconds (the 50 ms grammarMs budget at most);
 * unbounded, the same bombs took seconds to minutes (k=4: 2 s; k=6: out of memory). A second tells
 * the two apart on any machine; 100 ms failed on a loaded one (105-191 ms) with the bound in place.
 */
const PLAN_MS = 1000;

/** `{"type": ["object" x k], "properties": {"a": <the same again>}}`, `depth` deep. */
function typeListBomb(k: number, depth: number, type = 'object'): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++)
    node = type === 'object' ? { type: Array(k).fill('object'), properties: { a: node } } : { type: Array(k).fill('array'), items: node };
  return node;
}

/** A 24-property object (no `required`: the subset form) whose properties are the same again, `depth` deep. */
function wideObjects(depth: number, name = (i: number) => `p${i}`): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level++) {
    const properties = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [name(i), node]));
    node = { type: 'object', properties };
  }
  // As a caller's JSON arrives: no node shared.
  return JSON.parse(JSON.stringify(node)) as Record<string, unknown>;
}

function forcedCall(parameters: Record<string, unknown>): Record<string, unknown> {
  return {
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [{ type: 'function', function: { name: 't', parameters } }],
    tool_choice: 'required',
  };
}

function customRegex(definition: string): Record<string, unknown> {
  return {
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    tool_choice: 'required',
    tools: [{ type: 'custom', custom: { name: 'c', format: { type: 'grammar', grammar: { syntax: 'regex', definition } } } }],
  };
}

describe('grammar bombs, in process (the plan of a chat request for a completions backend that takes grammars)', () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await defaultBackend('fireworks', ['completions']);
  });
  afterAll(() => backend.adapter.close?.());

  /** The plan's grammar or its refusal, and how long it took. */
  function plan(body: Record<string, unknown>): { ms: number; grammar?: string; error?: ProxyError } {
    const request = parseChatRequest(body);
    const started = performance.now();
    try {
      const planned = planRequest(request, { backend, upstreamModel: 'm' });
      const format = planned.request.responseFormat;
      return { ms: performance.now() - started, ...(format?.type === 'grammar' ? { grammar: format.grammar } : {}) };
    } catch (error) {
      if (!(error instanceof ProxyError)) throw error;
      return { ms: performance.now() - started, error };
    }
  }

  /** A grammar within the budget, or the 400 that names `tools` and the limit. */
  function expectBounded(outcome: ReturnType<typeof plan>): void {
    expect(outcome.ms).toBeLessThan(PLAN_MS);
    if (outcome.error) {
      expect(outcome.error).toMatchObject({
        status: 400,
        code: 'limit_exceeded',
        param: 'tools',
        message: expect.stringMatching(/\(limits\.grammar(Bytes|Ms)\)\.$/),
      });
    } else {
      expect(Buffer.byteLength(outcome.grammar ?? '')).toBeLessThanOrEqual(DEFAULT_LIMITS.grammarBytes);
    }
  }

  test.each([2, 3, 4, 5, 6, 7, 8])('a type list of %i objects nested 9 deep: a small grammar, quickly', (k) => {
    const outcome = plan(forcedCall(typeListBomb(k, 9)));
    expectBounded(outcome);
    // Each node walked once: the grammar grows with the schema, not with k^9.
    expect(outcome.grammar?.length).toBeLessThan(20_000);
  });

  test('a type list of 6 arrays nested 9 deep', () => {
    const outcome = plan(forcedCall(typeListBomb(6, 9, 'array')));
    expectBounded(outcome);
    expect(outcome.grammar?.length).toBeLessThan(20_000);
  });

  test('anyOf and oneOf fanning out 8 ways, 9 deep, admit any value', () => {
    let node: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 9; i++)
      node = {
        type: 'object',
        properties: { a: { anyOf: [node, { type: 'null' }] }, b: { oneOf: Array.from({ length: 8 }, () => ({ type: 'integer' })) } },
        required: ['a'],
      };
    expectBounded(plan(forcedCall(node)));
  });

  test('a 5,000-entry enum is one rule', () => {
    const outcome = plan(
      forcedCall({ type: 'object', properties: { a: { enum: Array.from({ length: 5000 }, (_, i) => `v${i}`) } }, required: ['a'] }),
    );
    expectBounded(outcome);
    expect(outcome.grammar).toBeDefined();
  });

  test('24-property objects without required, nested three deep (13,824 leaves): within the budget or refused', () => {
    expectBounded(plan(forcedCall(wideObjects(3))));
  });

  test('24 properties with 30 KB names, none required: refused before the quadratic subset form is written', () => {
    const outcome = plan(forcedCall(wideObjects(1, (i) => `${i}`.padEnd(30_000, 'x'))));
    expectBounded(outcome);
    expect(outcome.error?.code).toBe('limit_exceeded');
  });

  test('a smaller budget in the config is the one applied', () => {
    const request = parseChatRequest(forcedCall(wideObjects(2)));
    expect(() => planRequest(request, { backend, upstreamModel: 'm' }, { limits: { grammarBytes: 4096, grammarMs: 50 } })).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'limit_exceeded',
        param: 'tools',
        message: expect.stringContaining('4096 bytes (limits.grammarBytes).'),
      }),
    );
  });

  test.each([
    ['5,000 nested groups', `${'('.repeat(5000)}a${')'.repeat(5000)}`, /groups nested more than 32 deep/],
    ['33 nested groups', `${'('.repeat(33)}a${')'.repeat(33)}`, /groups nested more than 32 deep/],
    ['nested counted repetitions', '((a{1000}){1000}){1000}', /unrolls to more than 10000 elements/],
    ['nested bounded repetitions', '(a{0,1000}){0,1000}', /unrolls to more than 10000 elements/],
    ['a 1 MB pattern of literals', 'a'.repeat(1 << 20), /unrolls to more than 10000 elements/],
    ['100,000 alternatives', Array.from({ length: 100_000 }, (_, i) => `w${i}`).join('|'), /unrolls to more than 10000 elements/],
    ['a class of a million characters', `[${'a'.repeat(1 << 20)}]`, /unrolls to more than 10000 elements/],
  ])('a custom tool regex with %s: a 400 naming tools', (_, definition, why) => {
    const outcome = plan(customRegex(definition));
    expect(outcome.ms).toBeLessThan(PLAN_MS);
    expect(outcome.error).toMatchObject({ status: 400, param: 'tools', message: expect.stringMatching(why) });
  });

  test('an ordinary regex still holds the input', () => {
    expect(plan(customRegex('^ORD-[0-9]{4}$')).grammar).toContain('"O" "R" "D" "-" [\\u0030-\\u0039]{4}');
  });
});

describe('grammar bombs, end to end (a real proxy, fireworks over completions, dry run)', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  const post = (body: unknown) =>
    fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dialect-dry-run': '1' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'fireworks', speaks: ['completions'] });
    // Warm: the first request's one-time work is not the bomb's.
    await (await post(forcedCall({ type: 'object', properties: { a: { type: 'string' } } }))).text();
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('the k=6 bomb (1 KB) is answered at once, and /healthz stays responsive meanwhile', async () => {
    const body = forcedCall(typeListBomb(6, 9));
    expect(JSON.stringify(body).length).toBeLessThan(1500);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    let answered = false;
    let slowestHealth = 0;
    const health = (async () => {
      while (!answered) {
        const started = performance.now();
        const response = await fetch(`${proxy.url}/healthz`);
        await response.text();
        expect(response.status).toBe(200);
        slowestHealth = Math.max(slowestHealth, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const started = performance.now();
    const response = await post(body);
    await response.text();
    const elapsed = performance.now() - started;
    answered = true;
    await health;
    loop.disable();

    expect(elapsed).toBeLessThan(5000);
    expect(response.status === 200 || (response.status >= 400 && response.status < 500)).toBe(true);
    // The proxy runs in this process: its event loop is this one. Unbounded, the bomb blocked it for
    // seconds and then ran out of memory; bounded, it is held for the grammar budget at most.
    expect(loop.max / 1e6).toBeLessThan(1000);
    expect(slowestHealth).toBeLessThan(1000);
    expect(upstream.requests).toHaveLength(0);
  }, 20_000);

  test('a regex of 5,000 nested groups is a 400 naming tools, not a 500', async () => {
    const response = await post(customRegex(`${'('.repeat(5000)}a${')'.repeat(5000)}`));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { param: string; message: string } };
    expect(body.error.param).toBe('tools');
    expect(body.error.message).toMatch(/groups nested more than 32 deep/);
  });

  test('((a{1000}){1000}){1000} is a 400 naming tools', async () => {
    const response = await post(customRegex('((a{1000}){1000}){1000}'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe('tools');
  });
});
