/**
 * The text-chunk template (adapters/openai/text-chunk-template.ts) reads most
 * chunks without JSON.parse; it must give exactly the events the full reader
 * gives. Reference: the same stream with every message named (`event:
 * message`), which the reader always reads in full.
 */
import fc from 'fast-check';
import { OpenAIChunkReader } from '../../../adapters/openai/from-wire-chunks.js';
import { readMessages } from '../../helpers/read-chunks.js';
import { TextChunkTemplate } from '../../../adapters/openai/text-chunk-template.js';
import { fireworksExtras } from '../../../adapters/fireworks/wire-extras.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import type { SseMessage } from '../../../src/streaming/decode-sse.js';
import type { WireExtras } from '../../../adapters/openai/wire-extras.js';

async function* messagesOf(data: readonly string[], named: boolean): AsyncGenerator<SseMessage> {
  for (const item of data) yield named ? { data: item, event: 'message' } : { data: item };
}

async function read(
  data: readonly string[],
  request: NeutralRequest,
  extras: WireExtras | undefined,
  named: boolean,
): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of readMessages(new OpenAIChunkReader(request, extras), messagesOf(data, named))) out.push(event);
  return out;
}

const request = (logprobs: boolean, endpoint: 'chat' | 'text'): NeutralRequest =>
  ({
    ...emptyRequest(endpoint, 'm'),
    ...(endpoint === 'chat' ? { messages: [] } : { prompt: 'Once' }),
    stream: { includeUsage: true, tokenIds: false },
    ...(logprobs ? { logprobs: { topLogprobs: 0 } } : {}),
  }) as NeutralRequest;

/** Texts with what JSON escapes differently: quotes, backslashes, controls, U+2028, astral and lone surrogates. */
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', ' ', '"', '\\', '\n', '\u0001', '\u2028', 'é', '😀', '\ud800', '/'), maxLength: 6 }),
  fc.constantFrom('', ' word1', ' word2', 'content', '"content":"x"', '\u0000template'),
);

/** How one upstream writes its chunks: the same for a whole stream. */
const spelling = fc.record({
  id: fc.constantFrom('c1', 'c2'),
  form: fc.constantFrom('chat', 'completions'),
  escaped: fc.boolean(),
  spaced: fc.boolean(),
});
type Spelling = { id: string; form: string; escaped: boolean; spaced: boolean };

/** The plain shape and near misses: other keys the reader acts on, the text elsewhere too. */
const extras = [
  'none',
  'refusal',
  'reasoning',
  'finish',
  'usage',
  'logprobs',
  'echoed-elsewhere',
  'token-ids',
  'perf',
  'two-choices',
  'index-1',
  'other-id',
] as const;
const piece = fc.record({ text, extra: fc.constantFrom(...extras, 'none', 'none') });

function chunkData({ id, form, escaped, spaced }: Spelling, { text: value, extra }: { text: string; extra: string }): string {
  const choice: Record<string, unknown> = { index: extra === 'index-1' ? 1 : 0 };
  if (form === 'chat') {
    const delta: Record<string, unknown> = { content: value };
    if (extra === 'refusal') delta.refusal = 'no';
    if (extra === 'reasoning') delta.reasoning_content = 'hmm';
    choice.delta = delta;
  } else choice.text = value;
  choice.logprobs =
    extra === 'logprobs'
      ? { content: [{ token: 'a', logprob: -1, bytes: [97], top_logprobs: [] }], tokens: ['a'], token_logprobs: [-1] }
      : null;
  choice.finish_reason = extra === 'finish' ? 'stop' : null;
  if (extra === 'token-ids') choice.token_ids = [5];
  const body: Record<string, unknown> = {
    id: extra === 'other-id' ? 'c3' : id,
    object: 'x',
    created: 1,
    model: 'm',
    choices: extra === 'two-choices' ? [choice, { ...choice, index: 1 }] : [choice],
  };
  if (extra === 'usage') body.usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  if (extra === 'perf') body.perf_metrics = { 'server-time-to-first-token': 0.1 };
  if (extra === 'echoed-elsewhere') body.note = { content: value };
  const data = JSON.stringify(body, null, spaced ? 1 : undefined);
  // Another upstream's spelling of the same text: an escape JSON.stringify would not write.
  return escaped ? data.replace(/"content": ?"/, (key) => `${key}\\u0061`) : data;
}

/** A stream: its pieces, then each choice's finish (where a held refusal shows). */
const stream = fc
  .tuple(spelling, fc.array(piece, { maxLength: 12 }))
  .map(([how, pieces]) => [
    ...pieces.map((item) => chunkData(how, item)),
    chunkData(how, { text: '', extra: 'finish' }),
    chunkData(how, { text: '', extra: 'index-1' }).replace('"finish_reason":null', '"finish_reason":"stop"'),
  ]);

describe('text-chunk template', () => {
  it("gives the full reader's events for any stream, whichever chunks it reads itself", async () => {
    await fc.assert(
      fc.asyncProperty(stream, fc.boolean(), fc.constantFrom('chat', 'text'), fc.boolean(), async (data, logprobs, endpoint, fireworks) => {
        const req = request(logprobs, endpoint as 'chat' | 'text');
        const extras = fireworks ? fireworksExtras : undefined;
        expect(await read(data, req, extras, false)).toEqual(await read(data, req, extras, true));
      }),
      { numRuns: 600 },
    );
  });

  it('reads the text of a chunk shaped as the one it learned, and nothing else', () => {
    const template = new TextChunkTemplate();
    const readText = (value: unknown) => (value as { choices: { delta: { content: string } }[] }).choices[0].delta.content;
    const data = (content: string) =>
      `{"id":"c","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]}`;
    expect(template.textOf(data(' a'))).toBeUndefined(); // nothing learned yet
    template.learn(data(' a'), 0, ' a', readText);
    expect(template.textOf(data(' word'))).toBe(' word');
    expect(template.textOf(data('a "quoted"\nline'))).toBe('a "quoted"\nline');
    expect(template.textOf(data(''))).toBeUndefined(); // an empty text makes no event: read in full
    expect(template.textOf(data('ends in a backslash \\'))).toBe('ends in a backslash \\');
    // Not one string token: an escaped closing quote, a bare quote, a raw newline.
    const raw = (token: string) => data(' a').replace('" a"', token);
    expect(template.textOf(raw('"abc\\"'))).toBeUndefined();
    expect(template.textOf(raw('"a"b"'))).toBeUndefined();
    expect(template.textOf(raw('"a\nb"'))).toBeUndefined();
    expect(template.textOf(raw('"\\u00e9"'))).toBe('é');
    expect(template.textOf(data(' b').replace('"c"', '"d"'))).toBeUndefined();
    expect(template.textOf('{"id":"c","choices":[{"index":0,"delta":{"content":"x","y":"z"},"finish_reason":null}]}')).toBeUndefined();
  });

  it('learns nothing when the text token it finds is not the one the reader reads', () => {
    const template = new TextChunkTemplate();
    const readText = (value: unknown) => (value as { choices: { delta: { content: string } }[] }).choices[0].delta.content;
    // The reader's token is escaped (\u0061 = "a"); the plain "a" is another key's value.
    const data = '{"note":{"content":"a"},"choices":[{"index":0,"delta":{"content":"\\u0061"}}]}';
    template.learn(data, 0, 'a', readText);
    expect(template.textOf(data.replace('"note":{"content":"a"}', '"note":{"content":"b"}'))).toBeUndefined();
  });
});
