/**
 * The engine end to end: a real worker process running stories260K.
 * From sources, the host transpiles the worker into node_modules/.cache (see worker-script.ts);
 * built code (dist/) uses worker-main.js directly.
 */
import { LlamaWorkerHost } from '../../../adapters/llama-cpp/worker-host.js';
import type { LlamaTokenLogprob } from '../../../adapters/llama-cpp/types.js';
import { baseRequest, collect, describeShared, greedyStory, run, storiesPath } from './helpers.js';

function expectSortedLogprobs(entry: LlamaTokenLogprob, top: number): void {
  expect(entry.top).toHaveLength(top);
  for (const [i, alternative] of entry.top.entries()) {
    expect(alternative.logprob).toBeLessThanOrEqual(0);
    if (i > 0) expect(alternative.logprob).toBeLessThanOrEqual(entry.top[i - 1].logprob);
    expect(alternative.bytes.length).toBeGreaterThan(0);
  }
}

describeShared('LlamaWorkerHost on stories260K', () => {
  const host = new LlamaWorkerHost({ model: storiesPath, parallel: 3, threads: 1, showProgress: false });
  beforeAll(() => host.start(), 30_000);
  afterAll(() => host.close());

  it('reports the model', () => {
    expect(host.info).toMatchObject({
      architecture: 'llama',
      vocabularySize: 512,
      contextSize: 2048,
      parallel: 3,
      threads: 1,
      addBos: true,
      bosToken: '<s>',
    });
    expect(host.info?.chatTemplate).toBeUndefined();
  });

  it('generates greedily and deterministically, with exact usage and timings', async () => {
    const first = await run(host, { temperature: 0, maxTokens: 32 });
    const second = await run(host, { temperature: 0, maxTokens: 32 });
    expect(first.text.startsWith(greedyStory)).toBe(true);
    expect(second.text).toBe(first.text);
    expect(first.tokenIds.slice(0, 5)).toEqual([432, 383, 286, 261, 376]);
    expect(first.end.finishReason).toBe('length');
    expect(first.end.usage).toMatchObject({ promptTokens: 5, completionTokens: 32 });
    expect(first.events[0]).toEqual({ type: 'prompt', tokenIds: [1, 403, 407, 261, 378] });
    // the second run found the prompt (all but its last token) already evaluated
    expect(second.end.usage.cachedPromptTokens).toBe(4);
    const { perf } = first.end;
    expect(perf.timeToFirstTokenMs).toBeGreaterThanOrEqual(perf.queueMs);
    expect(perf.generationMs).toBeGreaterThan(0);
    expect(perf.tokensPerSecond).toBeGreaterThan(0);
  });

  it('token ids and text agree with tokenize/detokenize', async () => {
    const { text, tokenIds } = await run(host, { temperature: 0, maxTokens: 12 });
    expect(await host.detokenize(tokenIds)).toBe(text.trimStart());
    expect(await host.tokenize('Once upon a time')).toEqual([403, 407, 261, 378]);
  });

  it('logprobs: N gives the N most likely tokens, sorted, with the greedy token first at temperature 0', async () => {
    const { events } = await run(host, { temperature: 0, maxTokens: 8, logprobs: 3 });
    const entries = events.flatMap((event) => (event.type === 'token' ? (event.logprobs ?? []) : []));
    expect(entries).toHaveLength(8);
    for (const entry of entries) {
      expectSortedLogprobs(entry, 3);
      expect(entry.top[0].tokenId).toBe(entry.tokenId);
      expect(entry.logprob).toBe(entry.top[0].logprob);
    }
    expect(entries[0]).toMatchObject({ token: ',', tokenId: 432 });
    expect(entries[0].logprob).toBeCloseTo(Math.log(0.9687), 3);
  });

  it('logprobs while sampling: the real distribution, and the sampled token scored in it', async () => {
    const request = { temperature: 1.2, seed: 11, maxTokens: 24, logprobs: 5 };
    const first = await run(host, request);
    const again = await run(host, request);
    expect(again.text).toBe(first.text);
    const entries = first.events.flatMap((event) => (event.type === 'token' ? (event.logprobs ?? []) : []));
    expect(entries).toHaveLength(24);
    for (const entry of entries) {
      expectSortedLogprobs(entry, 5);
      expect(entry.logprob).toBeLessThanOrEqual(0);
      const listed = entry.top.find((alternative) => alternative.tokenId === entry.tokenId);
      if (listed) expect(listed.logprob).toBe(entry.logprob);
      else expect(entry.logprob).toBeLessThanOrEqual(entry.top[4].logprob);
    }
  });

  it('echo with logprobs scores the prompt tokens (BOS left out)', async () => {
    const { events, end } = await run(host, { maxTokens: 0, echo: { all: true }, logprobs: 1 });
    const prompt = events[0];
    if (prompt.type !== 'prompt' || !prompt.echo) throw new Error('no echo');
    expect(prompt.echo.text).toBe('Once upon a time');
    expect(prompt.echo.tokenIds).toEqual([403, 407, 261, 378]);
    const logprobs = prompt.echo.logprobs ?? [];
    expect(logprobs.map((entry) => entry.token)).toEqual(['Once', ' upon', ' a', ' time']);
    expect(logprobs[0].logprob).toBeCloseTo(-0.2438, 3);
    expect(logprobs[1].logprob).toBeCloseTo(-0.0175, 3);
    expect(logprobs.every((entry) => entry.top.length === 1)).toBe(true);
    expect(end).toMatchObject({ finishReason: 'length', usage: { completionTokens: 0 } });
  });

  it('echo_last echoes the last N tokens; token-id prompts have an unscored first token', async () => {
    const last = await run(host, { maxTokens: 1, echo: { all: false, lastTokens: 2 }, temperature: 0 });
    expect(last.events[0]).toMatchObject({ type: 'prompt', echo: { text: ' a time', tokenIds: [261, 378] } });
    const ids = await run(host, { prompt: [403, 407], maxTokens: 1, echo: { all: true }, logprobs: 0 });
    const prompt = ids.events[0];
    if (prompt.type !== 'prompt' || !prompt.echo?.logprobs) throw new Error('no echo');
    expect(prompt.echo.logprobs[0]).toMatchObject({ tokenId: 403, logprob: null });
    expect(prompt.echo.logprobs[1].logprob).toBeLessThan(0);
  });

  it('the same seed gives the same text; another seed another text', async () => {
    const sample = (seed: number) => run(host, { temperature: 1, seed, maxTokens: 40 });
    const [a, b, c] = [await sample(5), await sample(5), await sample(6)];
    expect(b.text).toBe(a.text);
    expect(c.text).not.toBe(a.text);
    const typical = (seed: number) => run(host, { temperature: 1, typicalP: 0.5, seed, maxTokens: 40 });
    expect((await typical(5)).text).toBe((await typical(5)).text);
  });

  it('stop sequences cut the text across token boundaries and are not included', async () => {
    const one = await run(host, { temperature: 0, maxTokens: 40, stop: [' little'] });
    expect(one.text).toBe(', there was a');
    expect(one.end.finishReason).toBe('stop');
    const spanning = await run(host, { temperature: 0, maxTokens: 40, stop: ['ly. She lo', 'nothing'] });
    expect(spanning.text).toBe(', there was a little girl named Li');
  });

  it('json_schema output parses and follows the schema; json_object with sampling and logprobs too', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'] };
    const { text, end } = await run(host, { temperature: 0, maxTokens: 120, grammar: { kind: 'json-schema', schema } });
    const value = JSON.parse(text) as { name: unknown; age: unknown };
    expect(typeof value.name).toBe('string');
    expect(Number.isInteger(value.age)).toBe(true);
    expect(end.finishReason).toBe('stop');
    const enumSchema = { type: 'object', properties: { answer: { enum: ['yes', 'no'] } }, required: ['answer'] };
    const sampled = await run(host, {
      temperature: 0.9,
      seed: 2,
      logprobs: 2,
      maxTokens: 60,
      grammar: { kind: 'json-schema', schema: enumSchema },
    });
    expect(['yes', 'no']).toContain((JSON.parse(sampled.text) as { answer: string }).answer);
    const gbnf = await run(host, { temperature: 0, maxTokens: 10, grammar: { kind: 'gbnf', text: 'root ::= "yes" | "no"' } });
    expect(['yes', 'no']).toContain(gbnf.text);
  });

  it('rejects a grammar it cannot compile with a 400 naming the field', async () => {
    await expect(run(host, { grammar: { kind: 'gbnf', text: 'root ::= (' } })).rejects.toMatchObject({ status: 400, param: 'grammar' });
  });

  it('logit_bias bans and forces tokens, EOS included; ignore_eos keeps going', async () => {
    const banned = await run(host, { temperature: 0, maxTokens: 3, logitBias: { 432: -100 } });
    expect(banned.tokenIds[0]).not.toBe(432);
    const eos = await run(host, { temperature: 0, maxTokens: 10, logitBias: { 2: 100 } });
    expect(eos.end).toMatchObject({ finishReason: 'stop', usage: { completionTokens: 1 } });
    expect(eos.text).toBe('');
    const ignored = await run(host, { temperature: 0, maxTokens: 10, logitBias: { 2: 100 }, ignoreEos: true });
    expect(ignored.end).toMatchObject({ finishReason: 'length', usage: { completionTokens: 10 } });
    expect(ignored.tokenIds).not.toContain(2);
  });

  it('penalties change the greedy text', async () => {
    const plain = await run(host, { temperature: 0, maxTokens: 40 });
    const penalised = await run(host, {
      temperature: 0,
      maxTokens: 40,
      presencePenalty: 1.5,
      frequencyPenalty: 0.5,
      repetitionPenalty: 1.3,
    });
    expect(penalised.text).not.toBe(plain.text);
  });

  it('max_tokens past the context: truncate lowers it, error rejects with context_length_exceeded', async () => {
    await expect(run(host, { maxTokens: 5000, onContextOverflow: 'error' })).rejects.toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
      param: 'max_tokens',
    });
    const long = 'Once upon a time '.repeat(700);
    await expect(run(host, { prompt: long })).rejects.toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'prompt' });
    const tokens = (await host.tokenize('Once upon a time '.repeat(500))).length + 1;
    const truncated = await run(host, { prompt: 'Once upon a time '.repeat(500), maxTokens: 5000, ignoreEos: true, temperature: 0 });
    expect(truncated.end.usage).toMatchObject({ promptTokens: tokens, completionTokens: 2048 - tokens });
    expect(truncated.end.finishReason).toBe('length');
  });

  it('forces the end of a thought when the thinking budget is spent, and goes on', async () => {
    const thinking = { budgetTokens: 5, budgetEndText: ' Time is up.', openTag: '<think>', closeTag: '</think>', startsInside: true };
    const { text, end, events } = await run(host, { temperature: 0, maxTokens: 40, logprobs: 1, thinking });
    expect(text.startsWith(', there was a little Time is up.</think>')).toBe(true);
    expect(text.length).toBeGreaterThan(', there was a little Time is up.</think>'.length);
    expect(end.usage.completionTokens).toBe(40);
    const entries = events.flatMap((event) => (event.type === 'token' ? (event.logprobs ?? []) : []));
    expect(entries).toHaveLength(40);
    expect(entries.every((entry) => entry.logprob <= 0 && entry.top.length === 1)).toBe(true);
  });

  it('a request whose sequence holds stale tokens starts while other streams generate (the cache edit does not wait for them)', async () => {
    // Every sequence now holds tokens from earlier tests; a new prompt must erase some first.
    await Promise.all([1, 2, 3].map((seed) => run(host, { prompt: `Lily had a dog ${seed}`, temperature: 1, seed, maxTokens: 20 })));
    const long = { temperature: 0, maxTokens: 1500, ignoreEos: true };
    const finished: string[] = [];
    const longRuns = ['long A', 'long B'].map((name) =>
      run(host, { ...long, prompt: `${name}: Once upon a time` }).then(() => finished.push(name)),
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // both long streams are generating
    const short = await run(host, { prompt: 'The cat sat on the mat', temperature: 0, maxTokens: 5 });
    finished.push('short');
    await Promise.all(longRuns);
    expect(short.end.usage.completionTokens).toBe(5);
    expect(short.end.usage.cachedPromptTokens).toBeLessThan(short.end.usage.promptTokens);
    expect(finished[0]).toBe('short');
  });

  it('runs n generations of one prompt concurrently', async () => {
    const results = await Promise.all([1, 2, 3].map((seed) => run(host, { temperature: 1, seed, maxTokens: 30 })));
    expect(results.every((result) => result.end.usage.completionTokens === 30)).toBe(true);
    expect(new Set(results.map((result) => result.text)).size).toBe(3);
  });
});

describeShared('LlamaWorkerHost scheduling', () => {
  const host = new LlamaWorkerHost({ model: storiesPath, parallel: 1, queueLimit: 1, contextSize: 4096, showProgress: false });
  beforeAll(() => host.start(), 30_000);
  afterAll(() => host.close());
  const long = { ...baseRequest, maxTokens: 4000, ignoreEos: true, temperature: 0 };

  it('cancellation stops within a token and frees the sequence for the next request', async () => {
    const controller = new AbortController();
    const iterator = host.generate(long, controller.signal)[Symbol.asyncIterator]();
    let tokens = 0;
    while (tokens < 5) if ((await iterator.next()).value?.type === 'token') tokens++;
    controller.abort();
    await expect(iterator.next()).rejects.toMatchObject({ name: 'AbortError' });
    const next = await run(host, { temperature: 0, maxTokens: 10 });
    expect(next.end.usage.completionTokens).toBe(10);
    // it waited at most for the aborted request's current token
    expect(next.end.perf.queueMs).toBeLessThan(500);
  });

  it('past the queue limit a request gets a 429 with Retry-After', async () => {
    const controller = new AbortController();
    const running = host.generate(long, controller.signal)[Symbol.asyncIterator]();
    await running.next();
    const queued = host.generate(long, controller.signal)[Symbol.asyncIterator]();
    const queuedResult = queued.next().catch((error: unknown) => error);
    await expect(run(host, { maxTokens: 1 })).rejects.toMatchObject({
      status: 429,
      code: 'queue_full',
      type: 'rate_limit_error',
      retryAfterSeconds: expect.any(Number),
    });
    controller.abort();
    await expect(running.next()).rejects.toMatchObject({ name: 'AbortError' });
    expect(await queuedResult).toMatchObject({ name: 'AbortError' });
    expect((await run(host, { maxTokens: 3 })).end.usage.completionTokens).toBe(3);
  });

  it('a crashed worker fails its requests with a 503 and is restarted', async () => {
    const running = host.generate(long)[Symbol.asyncIterator]();
    await running.next();
    host.simulateCrash();
    await expect(collect({ [Symbol.asyncIterator]: () => running })).rejects.toMatchObject({ status: 503, code: 'worker_crashed' });
    const after = await run(host, { temperature: 0, maxTokens: 5 });
    expect(after.text.startsWith(', there was a little')).toBe(true);
  });

  it('a native abort inside llama.cpp ends only the worker process: a 503, then a restarted worker', async () => {
    const running = host.generate(long)[Symbol.asyncIterator]();
    await running.next();
    host.simulateCrash('native');
    await expect(collect({ [Symbol.asyncIterator]: () => running })).rejects.toMatchObject({
      status: 503,
      code: 'worker_crashed',
      message: expect.stringContaining('SIGABRT'),
    });
    const after = await run(host, { temperature: 0, maxTokens: 5 });
    expect(after.text.startsWith(', there was a little')).toBe(true);
  });
});

describeShared('LlamaWorkerHost stream batching', () => {
  const host = new LlamaWorkerHost({ model: storiesPath, parallel: 1, streamBatchMs: 100, showProgress: false });
  beforeAll(() => host.start(), 30_000);
  afterAll(() => host.close());

  it('sends the first token at once, then the rest in batches a window apart, each token still its own event', async () => {
    const arrivals: { type: string; at: number }[] = [];
    for await (const event of host.generate({ ...baseRequest, temperature: 0, maxTokens: 1000, ignoreEos: true })) {
      arrivals.push({ type: event.type, at: performance.now() });
    }
    const tokens = arrivals.filter((arrival) => arrival.type === 'token');
    expect(tokens).toHaveLength(1000);
    expect(arrivals.at(-1)?.type).toBe('end');
    // Generating takes ~0.3-1 ms a token; delivery waits for the 100 ms window after the first.
    expect(tokens[1].at - tokens[0].at).toBeGreaterThan(50);
    const pauses = tokens.slice(1).filter((token, i) => token.at - tokens[i].at > 50).length;
    expect(pauses).toBeGreaterThanOrEqual(2);
    expect(pauses).toBeLessThanOrEqual((tokens[999].at - tokens[0].at) / 50);
  });
});
