/**
 * The chunk frame encoders write exactly what encodeSseData writes, for the
 * shapes they write fast and for any other JSON data: near misses (keys
 * added, removed, reordered; values of other types), any JSON value.
 */
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { encodeChatChunkFrame } from '../../../src/dialects/openai-chat/chunk-frame.js';
import { encodeCompletionChunkFrame } from '../../../src/dialects/fireworks-completions/chunk-frame.js';
import { encodeSseData } from '../../../src/streaming/encode-sse.js';

type Chunk = Record<string, unknown>;
type Encoder = (chunk: Chunk) => string;

/** One code point, often one JSON escapes or one that needs care: quotes, controls, lone surrogates, U+2028, emoji. */
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '"',
      '\\',
      '/',
      '\n',
      '\r',
      '\t',
      '\b',
      '\f',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
      '\u2029',
      '😀',
      '\ufeff',
      'é',
      'a',
      ' ',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
);
const text = fc.string({ unit, maxLength: 12 });
const anyInteger = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(Number),
  fc.constantFrom(0, 1718000000, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, 1e21, -1e21, 1e300),
);
const nonNegativeInteger = fc.oneof(fc.nat(), fc.maxSafeNat(), fc.constantFrom(0, 1, 2 ** 53, 1e21, 1e300));

interface ChatHead {
  id: string;
  object: string;
  created: number;
  model: string;
  fingerprint: string | undefined;
  usage: boolean;
}
const chatHead: fc.Arbitrary<ChatHead> = fc.record({
  id: text,
  object: fc.oneof(fc.constant('chat.completion.chunk'), text),
  created: anyInteger,
  model: text,
  fingerprint: fc.option(text, { nil: undefined }),
  usage: fc.boolean(),
});
const completionHead = fc.record({ id: text, object: fc.oneof(fc.constant('text_completion'), text), created: anyInteger, model: text });
type CompletionHead = { id: string; object: string; created: number; model: string };

/** Built as serializeChatStream builds it: field by field, in this order. */
function chatChunk(head: ChatHead, choice: Chunk): Chunk {
  const out: Chunk = { id: head.id, object: head.object, created: head.created, model: head.model };
  if (head.fingerprint !== undefined) out.system_fingerprint = head.fingerprint;
  out.choices = [choice];
  if (head.usage) out.usage = null;
  return out;
}
const deltaChoice = (index: number, key: string, value: string): Chunk => ({
  index,
  delta: { [key]: value },
  logprobs: null,
  finish_reason: null,
});

/** Built as serializeCompletionStream builds it. */
function completionChunk(head: CompletionHead, index: number, value: string): Chunk {
  return {
    id: head.id,
    object: head.object,
    created: head.created,
    model: head.model,
    choices: [{ index, text: value, logprobs: null, finish_reason: null }],
  };
}

const hotChat = fc.record({ head: chatHead, index: nonNegativeInteger, key: fc.constantFrom('content', 'reasoning_content'), text });
const hotCompletion = fc.record({ head: completionHead, index: nonNegativeInteger, text });
const buildChat = ({ head, index, key, text: value }: { head: ChatHead; index: number; key: string; text: string }) =>
  chatChunk(head, deltaChoice(index, key, value));
const buildCompletion = ({ head, index, text: value }: { head: CompletionHead; index: number; text: string }) =>
  completionChunk(head, index, value);

const encoders: [string, Encoder][] = [
  ['encodeChatChunkFrame', encodeChatChunkFrame],
  ['encodeCompletionChunkFrame', encodeCompletionChunkFrame],
];

function canStringify(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

// ---- Near misses: edits of a chunk's keys and values, at any of its levels.

/** A key left out. */
const absent = Symbol('absent');

type Level = 'chunk' | 'choice' | 'delta';
type Edit =
  | { kind: 'add'; level: Level; at: number; key: string; value: unknown }
  | { kind: 'remove'; level: Level; at: number }
  | { kind: 'swap'; level: Level; at: number; to: number }
  | { kind: 'set'; level: Level; at: number; value: unknown }
  | { kind: 'choices'; value: 'none' | 'two' | 'nested' | 'hole' | 'string' | 'null' };

const level = fc.constantFrom<Level>('chunk', 'choice', 'delta');
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  text,
  fc.double(),
  anyInteger,
  fc.constantFrom<unknown>(
    undefined,
    null,
    NaN,
    Infinity,
    -Infinity,
    -0,
    0.5,
    1e-7,
    true,
    'stop',
    '',
    [],
    [[1, [2, []]]],
    { content: 'x' },
    new Date(0),
    () => 1,
    Symbol('s'),
  ),
);
const keyName = fc.oneof(
  fc.constantFrom(
    'id',
    'object',
    'created',
    'model',
    'system_fingerprint',
    'choices',
    'usage',
    'index',
    'delta',
    'content',
    'reasoning_content',
    'role',
    'text',
    'logprobs',
    'finish_reason',
    'token_ids',
    'extra',
    '0',
    '__proto__',
    'toJSON',
  ),
  text,
);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), level, at: fc.nat(7), key: keyName, value: oddValue }),
  fc.record({ kind: fc.constant('remove' as const), level, at: fc.nat(7) }),
  fc.record({ kind: fc.constant('swap' as const), level, at: fc.nat(7), to: fc.nat(7) }),
  fc.record({ kind: fc.constant('set' as const), level, at: fc.nat(7), value: oddValue }),
  fc.record({
    kind: fc.constant('choices' as const),
    value: fc.constantFrom('none', 'two', 'nested', 'hole', 'string', 'null') as fc.Arbitrary<
      'none' | 'two' | 'nested' | 'hole' | 'string' | 'null'
    >,
  }),
);

const isRecord = (value: unknown): value is Chunk => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Replaces the object at `where` (the chunk, its first choice, or that choice's delta) by `change(object)`. */
function replaceAt(chunk: Chunk, where: Level, change: (object: Chunk) => unknown): unknown {
  if (where === 'chunk') return change(chunk);
  const choices = chunk.choices;
  if (!Array.isArray(choices) || !isRecord(choices[0])) return chunk;
  if (where === 'choice') choices[0] = change(choices[0]);
  else if (isRecord(choices[0].delta)) choices[0].delta = change(choices[0].delta);
  return chunk;
}

function applyEdit(chunk: unknown, step: Edit): unknown {
  if (!isRecord(chunk)) return chunk;
  if (step.kind === 'choices') {
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    const choices: Record<typeof step.value, unknown> = {
      none: [],
      two: [choice, { ...(isRecord(choice) ? choice : {}), index: 1 }],
      nested: [[choice]],
      hole: new Array<unknown>(1),
      string: 'choices',
      null: null,
    };
    chunk.choices = choices[step.value];
    return chunk;
  }
  return replaceAt(chunk, step.level, (object) => {
    const entries = Object.entries(object);
    const at = entries.length === 0 ? 0 : step.at % entries.length;
    if (step.kind === 'add') entries.splice(step.at % (entries.length + 1), 0, [step.key, step.value]);
    else if (step.kind === 'remove') entries.splice(at, 1);
    else if (step.kind === 'set' && entries.length > 0) entries[at] = [entries[at][0], step.value];
    else if (step.kind === 'swap' && entries.length > 0) {
      const to = step.to % entries.length;
      [entries[at], entries[to]] = [entries[to], entries[at]];
    }
    return Object.fromEntries(entries);
  });
}

/** The hot shapes' keys, in order, each value sometimes of another type or shape. */
const maybe = (arbitrary: fc.Arbitrary<unknown>) => fc.oneof({ weight: 2, arbitrary }, { weight: 1, arbitrary: oddValue });
const variedChat = fc
  .record({
    id: maybe(text),
    object: maybe(text),
    created: maybe(anyInteger),
    model: maybe(text),
    fingerprint: fc.option(maybe(text), { nil: absent }),
    index: maybe(nonNegativeInteger),
    delta: maybe(fc.tuple(fc.constantFrom('content', 'reasoning_content'), maybe(text)).map(([key, value]) => ({ [key]: value }))),
    logprobs: maybe(fc.constant(null)),
    finishReason: maybe(fc.constant(null)),
    usage: fc.option(maybe(fc.constant(null)), { nil: absent }),
  })
  .map((values): Chunk => {
    const chunk: Chunk = { id: values.id, object: values.object, created: values.created, model: values.model };
    if (values.fingerprint !== absent) chunk.system_fingerprint = values.fingerprint;
    chunk.choices = [{ index: values.index, delta: values.delta, logprobs: values.logprobs, finish_reason: values.finishReason }];
    if (values.usage !== absent) chunk.usage = values.usage;
    return chunk;
  });
const variedCompletion = fc
  .record({
    id: maybe(text),
    object: maybe(text),
    created: maybe(anyInteger),
    model: maybe(text),
    index: maybe(nonNegativeInteger),
    text: maybe(text),
    logprobs: maybe(fc.constant(null)),
    finishReason: maybe(fc.constant(null)),
  })
  .map(({ index, text: value, logprobs, finishReason, ...head }): Chunk => ({
    ...head,
    choices: [{ index, text: value, logprobs, finish_reason: finishReason }],
  }));
const anyChunk = fc.oneof(hotChat.map(buildChat), hotCompletion.map(buildCompletion), variedChat, variedCompletion);

// ---- Properties.

const RUNS = { numRuns: 1500 };

describe('encodeChatChunkFrame / encodeCompletionChunkFrame', () => {
  test('common chat chunks, written fast, equal encodeSseData', () => {
    const head: ChatHead = {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1718000000,
      model: 'm',
      fingerprint: undefined,
      usage: false,
    };
    const content = chatChunk(head, deltaChoice(0, 'content', ' word17'));
    expect(encodeChatChunkFrame(content)).toBe(
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1718000000,"model":"m","choices":[{"index":0,"delta":{"content":" word17"},"logprobs":null,"finish_reason":null}]}\n\n',
    );
    const chunks = [
      content,
      chatChunk(head, deltaChoice(2, 'reasoning_content', 'think "hard"\n')),
      chatChunk({ ...head, fingerprint: 'fp_1', usage: true }, deltaChoice(0, 'content', 'x\u2028y\ud800')),
      chatChunk({ ...head, usage: true }, { index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }),
      chatChunk(head, { index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }),
      chatChunk(head, {
        index: 0,
        delta: { content: 'a' },
        logprobs: { content: [{ token: 'a', logprob: -0.5, bytes: [97], top_logprobs: [] }] },
        finish_reason: null,
      }),
      chatChunk(head, {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] },
        logprobs: null,
        finish_reason: null,
      }),
      { ...chatChunk({ ...head, usage: true }, {}), choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } },
      { error: { message: 'boom', type: 'server_error', param: null, code: null } },
    ];
    for (const chunk of chunks) expect(encodeChatChunkFrame(chunk)).toBe(encodeSseData(chunk));
  });

  test('common completion chunks, written fast, equal encodeSseData', () => {
    const head = { id: 'cmpl-1', object: 'text_completion', created: 1718000000, model: 'm' };
    const delta = completionChunk(head, 0, ' word17');
    expect(encodeCompletionChunkFrame(delta)).toBe(
      'data: {"id":"cmpl-1","object":"text_completion","created":1718000000,"model":"m","choices":[{"index":0,"text":" word17","logprobs":null,"finish_reason":null}]}\n\n',
    );
    const chunks = [
      delta,
      completionChunk(head, 3, '"\\\u0000😀'),
      { ...head, choices: [{ index: 0, text: '', logprobs: null, finish_reason: 'length' }] },
      {
        ...head,
        choices: [
          {
            index: 0,
            text: 'a',
            logprobs: { tokens: ['a'], token_logprobs: [-1], top_logprobs: null, text_offset: [0] },
            finish_reason: null,
          },
        ],
      },
      { ...head, choices: [{ index: 0, text: '', logprobs: null, finish_reason: null, reasoning_content: 'r' }] },
      { ...head, choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
    ];
    for (const chunk of chunks) expect(encodeCompletionChunkFrame(chunk)).toBe(encodeSseData(chunk));
  });

  test('hot chat chunks: any strings, integers, fingerprint and usage', () => {
    fc.assert(
      fc.property(hotChat, (data) => {
        const chunk = buildChat(data);
        expect(encodeChatChunkFrame(chunk)).toBe(encodeSseData(chunk));
      }),
      RUNS,
    );
  });

  test('hot completion chunks: any strings and integers', () => {
    fc.assert(
      fc.property(hotCompletion, (data) => {
        const chunk = buildCompletion(data);
        expect(encodeCompletionChunkFrame(chunk)).toBe(encodeSseData(chunk));
      }),
      RUNS,
    );
  });

  test('any number as created or index: floats, NaN, infinities, -0, unsafe integers', () => {
    const number = fc.oneof(fc.double(), anyInteger, fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, -1, 1e-7, 2 ** 53, 1e21));
    fc.assert(
      fc.property(hotChat, hotCompletion, number, number, (chat, completion, created, index) => {
        const forChat = buildChat({ ...chat, head: { ...chat.head, created }, index });
        const forCompletion = buildCompletion({ ...completion, head: { ...completion.head, created }, index });
        expect(encodeChatChunkFrame(forChat)).toBe(encodeSseData(forChat));
        expect(encodeCompletionChunkFrame(forCompletion)).toBe(encodeSseData(forCompletion));
      }),
      RUNS,
    );
  });

  test.each(encoders)('%s: the hot keys in order, values of other types or shapes', (_name, encode) => {
    fc.assert(
      fc.property(fc.oneof(variedChat, variedCompletion), (chunk) => {
        fc.pre(canStringify(chunk));
        expect(encode(chunk)).toBe(encodeSseData(chunk));
      }),
      { numRuns: 3000 },
    );
  });

  test.each(encoders)('%s: near misses (keys added, removed, reordered; other values; other choices)', (_name, encode) => {
    fc.assert(
      fc.property(anyChunk, fc.array(edit, { minLength: 1, maxLength: 3 }), (chunk, edits) => {
        const edited = edits.reduce<unknown>(applyEdit, chunk);
        fc.pre(isRecord(edited) && canStringify(edited));
        expect(encode(edited as Chunk)).toBe(encodeSseData(edited));
      }),
      { numRuns: 3000 },
    );
  });

  test.each(encoders)('%s: any JSON object', (_name, encode) => {
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(keyName, fc.string()), fc.jsonValue()), (value) => {
        expect(encode(value)).toBe(encodeSseData(value));
      }),
      RUNS,
    );
  });

  test("the cached head is one stream's: chunks of streams taken in turn", () => {
    const stream = fc.record({ head: chatHead, index: nonNegativeInteger, key: fc.constantFrom('content', 'reasoning_content') });
    fc.assert(
      fc.property(stream, stream, fc.array(fc.tuple(fc.boolean(), text), { minLength: 2, maxLength: 12 }), (a, b, turns) => {
        for (const [first, value] of turns) {
          const chunk = buildChat({ ...(first ? a : b), text: value });
          expect(encodeChatChunkFrame(chunk)).toBe(encodeSseData(chunk));
        }
      }),
      { numRuns: 500 },
    );
    const c = fc.record({ head: completionHead, index: nonNegativeInteger });
    fc.assert(
      fc.property(c, c, fc.array(fc.tuple(fc.boolean(), text), { minLength: 2, maxLength: 12 }), (a, b, turns) => {
        for (const [first, value] of turns) {
          const chunk = buildCompletion({ ...(first ? a : b), text: value });
          expect(encodeCompletionChunkFrame(chunk)).toBe(encodeSseData(chunk));
        }
      }),
      { numRuns: 500 },
    );
  });

  test('the cached head tells apart streams that differ in one value only', () => {
    const base: ChatHead = {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 5,
      model: 'm',
      fingerprint: undefined,
      usage: false,
    };
    const heads: ChatHead[] = [
      base,
      { ...base, id: 'chatcmpl-2' },
      base,
      { ...base, created: 6 },
      { ...base, created: -0 },
      { ...base, created: 0 },
      { ...base, model: 'n' },
      { ...base, fingerprint: 'fp' },
      base,
      { ...base, fingerprint: '' },
      { ...base, object: 'text_completion' },
      { ...base, usage: true },
      base,
    ];
    for (const head of heads) {
      const chat = chatChunk(head, deltaChoice(0, 'content', 'x'));
      const completion = completionChunk(head, 0, 'x');
      expect(encodeChatChunkFrame(chat)).toBe(encodeSseData(chat));
      expect(encodeCompletionChunkFrame(completion)).toBe(encodeSseData(completion));
      // The other encoder's chunk: a near miss for this one, and its cache is its own.
      expect(encodeChatChunkFrame(completion)).toBe(encodeSseData(completion));
      expect(encodeCompletionChunkFrame(chat)).toBe(encodeSseData(chat));
    }
  });

  test('what JSON.stringify cannot write throws as it does', () => {
    const cyclic = chatChunk(
      { id: 'a', object: 'chat.completion.chunk', created: 1, model: 'm', fingerprint: undefined, usage: false },
      deltaChoice(0, 'content', 'x'),
    );
    ((cyclic.choices as Chunk[])[0].delta as Chunk).content = cyclic;
    expect(() => encodeSseData(cyclic)).toThrow(TypeError);
    expect(() => encodeChatChunkFrame(cyclic)).toThrow(TypeError);
    const big = completionChunk({ id: 'a', object: 'text_completion', created: 1, model: 'm' }, 0, 'x');
    big.created = 1n;
    expect(() => encodeSseData(big)).toThrow(TypeError);
    expect(() => encodeCompletionChunkFrame(big)).toThrow(TypeError);
  });
});
