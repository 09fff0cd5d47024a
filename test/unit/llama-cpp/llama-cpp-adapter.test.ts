/** The llama-cpp adapter on the bundled worker with a real model (the engine project); its capabilities: llama-cpp-capabilities.test.ts. */
import { createLlamaCppAdapter } from '../../../adapters/llama-cpp/llama-cpp-adapter.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { planRequest } from '../../../src/pipeline/plan/plan.js';
import type { StreamBatches, StreamEvent } from '../../../src/model/stream-event.js';
import { eachEvent } from '../../../src/streaming/stream-batches.js';
import { describeShared, greedyStory, storiesPath } from './helpers.js';

function textRequest(patch: Partial<NeutralRequest> = {}): NeutralRequest {
  return { ...emptyRequest('text', 'stories'), prompt: 'Once upon a time', sampling: { temperature: 0 }, ...patch };
}

async function events(batches: StreamBatches): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of eachEvent(batches)) out.push(event);
  return out;
}

describeShared('LlamaCppAdapter on stories260K', () => {
  const adapter = createLlamaCppAdapter('local', { model: storiesPath, parallel: 2, queueLimit: 0, showProgress: false });
  const context = () => ({ signal: new AbortController().signal, requestId: 'test' });
  beforeAll(() => adapter.start(), 30_000);
  afterAll(() => adapter.close());

  it('completes text with echo, logprobs, token ids, usage and timings', async () => {
    const result = await adapter.complete(
      textRequest({
        limits: { maxTokens: 30, stop: [], onContextOverflow: 'truncate' },
        echo: { all: true },
        logprobs: { top: 2, shape: 'legacy' },
      }),
      context(),
    );
    const [choice] = result.choices;
    expect(choice.text.startsWith(greedyStory)).toBe(true);
    expect(choice.echoText).toBe('Once upon a time');
    expect(choice.promptLogprobs?.map((entry) => entry.token)).toEqual(['Once', ' upon', ' a', ' time']);
    expect(choice.promptLogprobs?.[0].logprob).toBeCloseTo(-0.2438, 3);
    expect(choice.logprobs).toHaveLength(30);
    expect(choice.logprobs?.[0]).toMatchObject({ token: ',', tokenId: 432, bytes: [44] });
    expect(choice.logprobs?.[0].top).toHaveLength(2);
    expect(choice.tokenIds?.slice(0, 3)).toEqual([432, 383, 286]);
    expect(choice.promptTokenIds).toEqual([1, 403, 407, 261, 378]);
    expect(choice.finishReason).toBe('length');
    expect(result.usage).toEqual({ promptTokens: 5, completionTokens: 30, totalTokens: 35, cachedPromptTokens: expect.any(Number) });
    expect(result.perf?.timeToFirstToken).toBeGreaterThan(0);
    expect(result.id).toMatch(/^cmpl-/);
  });

  it('streams: response-start, text deltas, choice-end, perf, usage', async () => {
    const stream = await events(
      adapter.stream(textRequest({ limits: { maxTokens: 10, stop: ['girl'], onContextOverflow: 'truncate' } }), context()),
    );
    expect(stream[0]).toMatchObject({ type: 'response-start', model: 'stories' });
    const deltas = stream.filter((event) => event.type === 'text-delta');
    expect(deltas.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('')).toBe(', there was a little ');
    expect(stream.slice(-3).map((event) => event.type)).toEqual(['choice-end', 'perf', 'usage']);
    expect(stream.find((event) => event.type === 'choice-end')).toMatchObject({ finishReason: 'stop' });
  });

  it('chat renders the messages (ChatML: stories260K has no template) and answers', async () => {
    const request: NeutralRequest = {
      ...emptyRequest('chat', 'stories'),
      messages: [{ role: 'user', content: 'Tell me a story.' }],
      sampling: { temperature: 0 },
      limits: { maxTokens: 20, stop: [], onContextOverflow: 'truncate' },
    };
    const plan = planRequest(request, { backend: { name: 'local', adapter, settings: { kind: 'llama-cpp' } }, upstreamModel: 'stories' });
    const result = await plan.engine.complete(plan.request, context());
    expect(adapter.chatTemplate).toBeUndefined();
    expect(result.choices[0].text.length).toBeGreaterThan(0);
    // ChatML's markers are plain text to this vocabulary: 4 words of user message become many prompt tokens.
    expect(result.usage?.promptTokens).toBeGreaterThan(20);
    expect(result.usage?.completionTokens).toBeLessThanOrEqual(20);
  });

  it('errors before any output are the first event (an HTTP error), with the right status', async () => {
    const tooLong = textRequest({ limits: { maxTokens: 99_999, stop: [], onContextOverflow: 'error' } });
    const [first] = await events(adapter.stream(tooLong, context()));
    expect(first).toMatchObject({ type: 'error', error: { status: 400, code: 'context_length_exceeded' } });
    await expect(adapter.complete(tooLong, context())).rejects.toMatchObject({ status: 400, param: 'max_tokens' });
  });

  it('a full queue answers 429 with Retry-After', async () => {
    const controller = new AbortController();
    const long = textRequest({ limits: { maxTokens: 1500, stop: [], ignoreEos: true, onContextOverflow: 'truncate' } });
    const busy = [
      adapter.stream(long, { signal: controller.signal, requestId: 'a' }),
      adapter.stream(long, { signal: controller.signal, requestId: 'b' }),
    ].map((stream) => stream[Symbol.asyncIterator]());
    await Promise.all(busy.map((iterator) => iterator.next()));
    const [first] = await events(adapter.stream(textRequest(), context()));
    expect(first).toMatchObject({ type: 'error', error: { status: 429, retryAfterSeconds: expect.any(Number) } });
    controller.abort();
    const drain = async (iterator: AsyncIterator<StreamEvent[]>) => {
      for (;;) if ((await iterator.next()).done) return;
    };
    await Promise.all(busy.map((iterator) => expect(drain(iterator)).rejects.toMatchObject({ name: 'AbortError' })));
  });
});
