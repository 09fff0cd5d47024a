/** Anthropic answers -> neutral results, and its named SSE events -> StreamEvents. */
import { AnthropicChunkReader } from '../../../adapters/anthropic/from-wire-chunks.js';
import { fromWireResult } from '../../../adapters/anthropic/from-wire-result.js';
import { upstreamError } from '../../../src/errors/catalogue.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { anthropicMessage, sseOf, textStream } from '../../helpers/mock-anthropic.js';
import { readSse } from '../../helpers/read-chunks.js';

const request = (): NeutralRequest => ({ ...emptyRequest('chat', 'claude-test'), messages: [{ role: 'user', content: 'Hi' }] });

const encoder = new TextEncoder();
async function* bytes(...pieces: string[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield encoder.encode(piece);
}

async function events(...pieces: string[]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of readSse(new AnthropicChunkReader(request()), bytes(...pieces))) out.push(event);
  return out;
}

/** The events with a response-start's clock reading taken out. */
const timeless = (list: StreamEvent[]) => list.map((event) => (event.type === 'response-start' ? { ...event, created: 0 } : event));

describe('anthropic fromWireResult', () => {
  test('text, thinking with its signature, redacted thinking, tool calls, and the usage with cache counts', () => {
    const result = fromWireResult(
      anthropicMessage({
        content: [
          { type: 'thinking', thinking: 'Let me look.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'EnC0dEd' },
          { type: 'text', text: 'Checking ' },
          { type: 'text', text: 'now.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
        usage: {
          input_tokens: 5,
          cache_read_input_tokens: 100,
          cache_creation_input_tokens: 20,
          output_tokens: 7,
          service_tier: 'standard',
        },
      }),
      request(),
    );
    expect({ ...result, created: 0 }).toEqual({
      id: 'msg_01',
      model: 'claude-test',
      created: 0,
      choices: [
        {
          index: 0,
          text: 'Checking now.',
          finishReason: 'tool_calls',
          reasoning: 'Let me look.',
          reasoningSignature: 'sig-1',
          vendor: { anthropic: { redactedReasoning: ['EnC0dEd'] } },
          toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: '{"city":"Paris"}' }],
        },
      ],
      usage: { promptTokens: 125, completionTokens: 7, totalTokens: 132, cachedPromptTokens: 100, cacheWriteTokens: 20 },
      serviceTier: 'default',
    });
  });

  test.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['something_new', 'error'],
  ])('stop_reason %s is finish reason %s', (stopReason, finishReason) => {
    expect(fromWireResult(anthropicMessage({ stop_reason: stopReason }), request()).choices[0].finishReason).toBe(finishReason);
  });

  test('the stop sequence that ended the text', () => {
    const choice = fromWireResult(anthropicMessage({ stop_reason: 'stop_sequence', stop_sequence: '###' }), request()).choices[0];
    expect(choice).toMatchObject({ finishReason: 'stop', stopSequence: '###' });
  });

  test('two thinking blocks: their text joined, no signature (each signs only its own block)', () => {
    const choice = fromWireResult(
      anthropicMessage({
        content: [
          { type: 'thinking', thinking: 'One. ', signature: 'a' },
          { type: 'thinking', thinking: 'Two.', signature: 'b' },
          { type: 'text', text: 'Done' },
        ],
      }),
      request(),
    ).choices[0];
    expect(choice.reasoning).toBe('One. Two.');
    expect(choice).not.toHaveProperty('reasoningSignature');
  });

  test('an error body is the mapped error; a body that is no message is a 502', () => {
    const thrown = (body: unknown) => {
      try {
        fromWireResult(body, request());
      } catch (error) {
        return error as ProxyError;
      }
      throw new Error('expected an error');
    };
    const busy = upstreamError(529, '');
    expect(thrown({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toMatchObject({
      status: busy.status,
      code: busy.code,
      message: 'The upstream backend answered with an error: Overloaded',
    });
    expect(thrown({ type: 'error', error: { type: 'invalid_request_error', message: 'top_k: Input should be an integer' } })).toMatchObject(
      {
        status: 400,
        param: 'top_k',
      },
    );
    expect(thrown({ choices: [] })).toMatchObject({ status: 502, code: 'upstream_bad_response' });
  });
});

describe('anthropic chunk reader', () => {
  test('a text stream: start, deltas (ping ignored), the end with its stop sequence, then usage', async () => {
    const list = await events(sseOf(textStream(['Hel', 'lo'], { reason: 'stop_sequence', sequence: '###', output: 2 })));
    expect(timeless(list)).toEqual([
      // message_start's counts: the prompt's size as the answer starts.
      {
        type: 'response-start',
        id: 'msg_01',
        model: 'claude-test',
        created: 0,
        usage: { promptTokens: 10, completionTokens: 1, totalTokens: 11 },
      },
      { type: 'text-delta', choice: 0, delta: 'Hel' },
      { type: 'text-delta', choice: 0, delta: 'lo' },
      { type: 'choice-end', choice: 0, finishReason: 'stop', stopSequence: '###' },
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 } },
    ]);
  });

  test('thinking with its signature, then a tool call whose input streams in pieces, split across packets', async () => {
    const transcript = sseOf([
      {
        type: 'message_start',
        message: { id: 'msg_2', model: 'claude-test', usage: { input_tokens: 8, cache_read_input_tokens: 4, output_tokens: 1 } },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Need weather.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-9' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city": ' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_2', name: 'now', input: {} } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } },
      { type: 'message_stop' },
    ]);
    const cut = transcript.length / 2;
    const list = await events(transcript.slice(0, cut), transcript.slice(cut));
    expect(timeless(list)).toEqual([
      {
        type: 'response-start',
        id: 'msg_2',
        model: 'claude-test',
        created: 0,
        usage: { promptTokens: 12, completionTokens: 1, totalTokens: 13, cachedPromptTokens: 4 },
      },
      { type: 'reasoning-delta', choice: 0, delta: 'Need weather.' },
      { type: 'reasoning-signature', choice: 0, signature: 'sig-9' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'toolu_1', name: 'weather', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"city": ' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'toolu_2', name: 'now', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '{}' },
      { type: 'choice-end', choice: 0, finishReason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 12, completionTokens: 30, totalTokens: 42, cachedPromptTokens: 4 } },
    ]);
  });

  test('an error event ends the stream with the mapped error (overloaded: as a 529 is)', async () => {
    const start = textStream([]).slice(0, 2);
    const list = await events(sseOf([...start, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]));
    expect(list.map((event) => event.type)).toEqual(['response-start', 'error']);
    const last = list[1] as Extract<StreamEvent, { type: 'error' }>;
    expect(last.error).toMatchObject({ status: upstreamError(529, '').status, code: 'upstream_overloaded' });
  });

  test('a stream cut before the message finished is an error', async () => {
    const list = await events(sseOf(textStream(['Hel']).slice(0, 4)));
    expect(list[list.length - 1]).toMatchObject({ type: 'error', error: { code: 'upstream_stream_truncated' } });
  });
});
