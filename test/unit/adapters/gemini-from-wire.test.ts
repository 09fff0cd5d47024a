/** Gemini answers and stream chunks -> neutral results and events: a small answer in, the exact result out. */
import { GeminiChunkReader } from '../../../adapters/gemini/from-wire-chunks.js';
import { fromWireResult } from '../../../adapters/gemini/from-wire-result.js';
import { readSignature } from '../../../adapters/gemini/thought-signature.js';
import { emptyRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';

const request = () => ({ ...emptyRequest('chat', 'gemini-test'), messages: [] });

describe('gemini fromWireResult', () => {
  test('thought parts are reasoning, a functionCall a tool call whose id carries its signature, STOP with calls is tool_calls', () => {
    const result = fromWireResult(
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'Hmm.', thought: true },
                { text: 'Calling.' },
                { functionCall: { id: 'fc1', name: 'f', args: { a: 1 } }, thoughtSignature: 'sig' },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: {
          promptTokenCount: 5,
          candidatesTokenCount: 2,
          thoughtsTokenCount: 3,
          cachedContentTokenCount: 4,
          totalTokenCount: 10,
        },
        modelVersion: 'gemini-x',
        responseId: 'r1',
      },
      request(),
    );
    expect(result).toMatchObject({
      id: 'r1',
      model: 'gemini-x',
      choices: [
        { index: 0, text: 'Calling.', reasoning: 'Hmm.', finishReason: 'tool_calls', toolCalls: [{ name: 'f', arguments: '{"a":1}' }] },
      ],
      usage: { promptTokens: 5, completionTokens: 5, totalTokens: 10, reasoningTokens: 3, cachedPromptTokens: 4 },
    });
    expect(readSignature(result.choices[0].toolCalls![0].id)).toEqual({ id: 'fc1', signature: 'sig' });
  });

  test('parallel_tool_calls false: Gemini has no switch, so only the first call of an answer is kept', () => {
    const calls = [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 's' }, { functionCall: { name: 'g', args: {} } }];
    const single = { ...request(), parallelToolCalls: false };
    const result = fromWireResult({ candidates: [{ content: { parts: calls }, finishReason: 'STOP' }], responseId: 'r' }, single);
    expect(result.choices[0].toolCalls?.map((call) => call.name)).toEqual(['f']);
    expect(
      fromWireResult({ candidates: [{ content: { parts: calls }, finishReason: 'STOP' }] }, request()).choices[0].toolCalls,
    ).toHaveLength(2);
  });

  test('finish reasons: MAX_TOKENS is length; SAFETY a content filter and MALFORMED_FUNCTION_CALL an error, each named', () => {
    const finish = (reason: string) => {
      const asked = request();
      const result = fromWireResult({ candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: reason }] }, asked);
      return { reason: result.choices[0].finishReason, warnings: asked.warnings };
    };
    expect(finish('MAX_TOKENS')).toEqual({ reason: 'length', warnings: [] });
    expect(finish('SAFETY')).toEqual({ reason: 'content_filter', warnings: ['Gemini stopped the answer: finishReason SAFETY'] });
    expect(finish('MALFORMED_FUNCTION_CALL')).toEqual({
      reason: 'error',
      warnings: ['Gemini ended the answer with finishReason MALFORMED_FUNCTION_CALL'],
    });
  });
});

describe('gemini stream', () => {
  const read = (chunks: unknown[]): StreamEvent[] => {
    const reader = new GeminiChunkReader(request());
    const out: StreamEvent[] = [];
    for (const chunk of chunks) reader.push({ data: JSON.stringify(chunk) }, out);
    reader.finish(out);
    return out;
  };

  test('text, a whole function call, the finish and the usage', () => {
    const events = read([
      { candidates: [{ content: { parts: [{ text: 'Hi' }] } }], responseId: 'r2', modelVersion: 'g' },
      {
        candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 's' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 },
      },
    ]);
    expect(events.map((event) => event.type)).toEqual(['response-start', 'text-delta', 'tool-call-delta', 'choice-end', 'usage']);
    expect(events[2]).toMatchObject({ index: 0, name: 'f', argumentsDelta: '{}' });
    expect(readSignature((events[2] as { id: string }).id)).toEqual({ id: 'call_r2_0', signature: 's' });
    expect(events[3]).toMatchObject({ finishReason: 'tool_calls' });
  });

  test('an error frame ends the stream; a stream cut short is truncated', () => {
    expect(read([{ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } }])).toMatchObject([
      { type: 'error', error: { code: 'upstream_overloaded' } },
    ]);
    expect(read([{ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] }]).at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'upstream_stream_truncated' },
    });
  });
});
