/** llama-server's answers -> neutral: usage over all choices, errors that name their field; and the capabilities. */
import { choicesAreNative, supports } from '../../../src/backend/capabilities.js';
import { handlingOf } from '../../../src/backend/field-support.js';
import { unsupportedFields } from '../../helpers/unsupported-fields.js';
import { llamaServerCapabilities } from '../../../adapters/llama-server/llama-server-adapter.js';
import { LlamaServerChunkReader } from '../../../adapters/llama-server/from-wire-chunks.js';
import { readSse } from '../../helpers/read-chunks.js';
import { fromWireResult } from '../../../adapters/llama-server/from-wire-result.js';
import { refineError } from '../../../adapters/llama-server/refine-error.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';

const text = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({ ...emptyRequest('text', 'm'), prompt: 'Once', ...extra });
const chat = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({ ...emptyRequest('chat', 'm'), messages: [], ...extra });

const head = { id: 'chatcmpl-x', created: 1, model: 'stories260K' };
const choice = (index: number, finish: string, extra: Record<string, unknown> = {}) => ({
  index,
  text: 'ab',
  logprobs: null,
  finish_reason: finish,
  ...extra,
});
const usage = (prompt: number, completion: number, cached = 0) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached },
});
const lp = (count: number) => ({
  content: Array.from({ length: count }, () => ({ id: 1, token: 'a', bytes: [97], logprob: -1, top_logprobs: [] })),
});

async function events(chunks: unknown[], request: NeutralRequest): Promise<StreamEvent[]> {
  const transcript = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
  async function* bytes() {
    yield new TextEncoder().encode(transcript);
  }
  const out: StreamEvent[] = [];
  for await (const event of readSse(new LlamaServerChunkReader({ ...request, stream: { includeUsage: true, tokenIds: false } }), bytes()))
    out.push(event);
  return out;
}

describe('llama-server fromWireResult', () => {
  test('a completion: timings as perf, usage as given for one choice, the id as given (the dialect re-prefixes it)', () => {
    const body = {
      ...head,
      object: 'text_completion',
      choices: [choice(0, 'stop')],
      usage: usage(5, 2, 4),
      timings: { prompt_ms: 2, predicted_ms: 4 },
    };
    expect(fromWireResult(body, text())).toEqual({
      id: 'chatcmpl-x',
      model: 'stories260K',
      created: 1,
      choices: [{ index: 0, text: 'ab', finishReason: 'stop' }],
      usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7, cachedPromptTokens: 4 },
      perf: { prefillTime: 0.002, generationTime: 0.004 },
    });
  });

  test('n: 2, both cut by length: each generated as many tokens as the first, whose count is the usage', () => {
    const request = text({ choices: 2 });
    const result = fromWireResult({ ...head, choices: [choice(0, 'length'), choice(1, 'length')], usage: usage(5, 16, 4) }, request);
    expect(result.usage).toEqual({ promptTokens: 5, completionTokens: 32, totalTokens: 37, cachedPromptTokens: 4 });
    expect(request.warnings).toEqual([]);
  });

  test('n: 2, the first stopped: a choice cut by length is counted by its logprobs', () => {
    const request = text({ choices: 2, logprobs: { top: 0, shape: 'legacy' } });
    const result = fromWireResult(
      { ...head, choices: [choice(0, 'stop', { logprobs: lp(3) }), choice(1, 'length', { logprobs: lp(6) })], usage: usage(5, 3) },
      request,
    );
    expect(result.usage).toEqual({ promptTokens: 5, completionTokens: 9, totalTokens: 14, cachedPromptTokens: 0 });
  });

  test('a choice whose count cannot be proven leaves the usage as given, named in a warning', () => {
    const request = text({ choices: 2 });
    const result = fromWireResult({ ...head, choices: [choice(0, 'length'), choice(1, 'stop')], usage: usage(5, 16) }, request);
    expect(result.usage).toEqual({ promptTokens: 5, completionTokens: 16, totalTokens: 21, cachedPromptTokens: 0 });
    expect(request.warnings).toEqual(['usage counts the first choice only: llama-server reports no usage for the other 1 choice(s)']);
  });

  test("a prompt batch: the other prompts' tokens are unknown, so the warning", () => {
    const request = text({ prompt: ['a', 'b'] });
    fromWireResult({ ...head, choices: [choice(0, 'length'), choice(1, 'length')], usage: usage(5, 16) }, request);
    expect(request.warnings).toHaveLength(1);
  });
});

describe('llama-server chunk reader', () => {
  test('completions n: 2: usage on each finishing chunk -> the prompt once, both completions', async () => {
    const out = await events(
      [
        { ...head, choices: [choice(1, null as unknown as string, { text: 'a' })] },
        { ...head, choices: [choice(0, null as unknown as string, { text: 'b' })] },
        { ...head, choices: [choice(1, 'length', { text: '' })], usage: usage(5, 4, 4), timings: { prompt_ms: 1 } },
        { ...head, choices: [choice(0, 'length', { text: '' })], usage: usage(5, 4, 4), timings: { prompt_ms: 2 } },
      ],
      text({ choices: 2 }),
    );
    expect(out[0]).toEqual({ type: 'response-start', id: 'chatcmpl-x', model: 'stories260K', created: 1 });
    expect(out.filter((event) => event.type === 'usage')).toEqual([
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 8, totalTokens: 13, cachedPromptTokens: 4 } },
    ]);
  });

  test('a prompt batch: each prompt counted once', async () => {
    const out = await events(
      [
        { ...head, choices: [choice(0, 'length', { text: 'a' })], usage: usage(5, 4, 4) },
        { ...head, choices: [choice(1, 'length', { text: 'b' })], usage: usage(3, 4, 0) },
      ],
      text({ prompt: ['Once upon a time', 'The dog'] }),
    );
    expect(out.filter((event) => event.type === 'usage')).toEqual([
      { type: 'usage', usage: { promptTokens: 8, completionTokens: 8, totalTokens: 16, cachedPromptTokens: 4 } },
    ]);
  });

  test("chat n: 2: each choice's usage chunk (empty choices) follows its finish; all are counted, not the last alone", async () => {
    const delta = (index: number, finish: string | null, content?: string) => ({
      index,
      delta: content === undefined ? {} : { content },
      finish_reason: finish,
    });
    const out = await events(
      [
        { ...head, object: 'chat.completion.chunk', choices: [delta(0, null, 'Hi')] },
        { ...head, object: 'chat.completion.chunk', choices: [delta(1, null, 'Yo')] },
        { ...head, object: 'chat.completion.chunk', choices: [delta(1, 'length')] },
        { ...head, object: 'chat.completion.chunk', choices: [], usage: usage(50, 8, 49) },
        { ...head, object: 'chat.completion.chunk', choices: [delta(0, 'stop')] },
        { ...head, object: 'chat.completion.chunk', choices: [], usage: usage(50, 3, 49) },
      ],
      chat({ choices: 2 }),
    );
    expect(out.at(-1)).toEqual({
      type: 'usage',
      usage: { promptTokens: 50, completionTokens: 11, totalTokens: 61, cachedPromptTokens: 49 },
    });
  });

  test("a mid-stream error frame (llama.cpp's numeric code) ends the stream as an error event, with no usage", async () => {
    const out = await events(
      [
        { ...head, choices: [choice(0, null as unknown as string, { text: 'a' })] },
        { error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } },
      ],
      text(),
    );
    expect(out.map((event) => event.type)).toEqual(['response-start', 'text-delta', 'error']);
    expect(out.at(-1)).toMatchObject({ error: { status: 502, code: 'upstream_error' } });
  });
});

describe('llama-server refineError', () => {
  const bad = (message: string, status = 400) => new ProxyError({ status, type: 'invalid_request_error', message });

  test("`Field 'x'` names the caller's field", () => {
    expect(refineError(bad("Field 'n': Value must be between 1 <= value <= 4, but got 8"), text())).toMatchObject({
      param: 'n',
      code: null,
    });
    expect(refineError(bad("Field 'repeat_penalty': bad"), text())).toMatchObject({ param: 'repetition_penalty' });
    expect(refineError(bad("Field 'max_tokens': bad"), chat({ origins: { 'limits.maxTokens': 'max_completion_tokens' } }))).toMatchObject({
      param: 'max_completion_tokens',
    });
  });

  test("a prompt too long for the slot is context_length_exceeded, naming the caller's own field", () => {
    const tooLong = 'request (600 tokens) exceeds the available context size (512 tokens), try increasing it';
    expect(refineError(bad(tooLong), chat({ origins: { messages: 'messages' } }))).toMatchObject({
      status: 400,
      param: 'messages',
      code: 'context_length_exceeded',
    });
    expect(
      refineError(
        bad('input (600 tokens) is larger than the max context size (512 tokens). skipping'),
        text({ origins: { prompt: 'prompt' } }),
      ),
    ).toMatchObject({ param: 'prompt', code: 'context_length_exceeded' });
    // Translated: a completions caller's prompt went as a chat message; a chat caller's messages as a prompt.
    expect(refineError(bad(tooLong), chat({ origins: { prompt: 'prompt' } }))).toMatchObject({ param: 'prompt' });
    expect(refineError(bad(tooLong), text({ origins: { messages: 'messages' } }))).toMatchObject({ param: 'messages' });
    // A request that recorded neither: name nothing rather than a field the caller never sent.
    expect(refineError(bad(tooLong), chat())).toMatchObject({ param: null, code: 'context_length_exceeded' });
  });

  test('other errors pass unchanged', () => {
    const error = bad("Field 'n': bad", 502);
    expect(refineError(error, text())).toBe(error);
  });
});

describe('llama-server capabilities', () => {
  test('defaults: both endpoints, what llama-server honours, no efforts, no relayed fields', () => {
    const capabilities = llamaServerCapabilities({ url: 'http://127.0.0.1:8089/v1' });
    expect(capabilities.speaks).toEqual(['completions', 'chat']);
    expect(unsupportedFields(capabilities)).toEqual([
      'cacheControl',
      'contextManagement',
      'echo',
      'echo.lastTokens',
      'images',
      'limits.onContextOverflow',
      'metadata',
      'prediction',
      'promptCacheIsolationKey',
      'promptCacheKey',
      'rawOutput',
      'reasoning.budgetEndText',
      'reasoning.budgetTokens',
      'reasoning.effort',
      'reasoning.history',
      'returnTokenIds',
      'samplingMask',
      'serviceTier',
      'store',
      'stream.tokenIds',
      'toolError',
      'tools',
      'tools:custom',
      'user',
    ]);
    expect(handlingOf(capabilities.fields, 'prompt:batch', 'text').kind).toBe('native');
    expect(choicesAreNative(capabilities)).toBe(true);
    expect(capabilities.maxTopLogprobs).toBe(20);
    expect(capabilities.efforts).toEqual(new Set());
    expect(capabilities.relayed).toEqual({ chat: new Set(), text: new Set() });
  });

  test('chat only: no token-id prompts or batches; --jinja adds tools', () => {
    const capabilities = llamaServerCapabilities({ url: 'http://h/v1', speaks: ['chat'], maxTopLogprobs: 5, jinja: true });
    expect(supports(capabilities, 'prompt:tokenIds')).toBe(false);
    expect(handlingOf(capabilities.fields, 'prompt:batch', 'chat').kind).toBe('emulate');
    expect(supports(capabilities, 'tools')).toBe(true);
    expect(capabilities.maxTopLogprobs).toBe(5);
  });
});
