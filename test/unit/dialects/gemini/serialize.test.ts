/** Neutral results and stream events -> Gemini's GenerateContentResponse, its errors, its URLs and its stream framings. */
import { geminiDialect } from '../../../../src/dialects/gemini/index.js';
import { geminiErrorBody } from '../../../../src/dialects/gemini/error-body.js';
import { geminiCallOf } from '../../../../src/dialects/gemini/route.js';
import { parseGeminiRequest } from '../../../../src/dialects/gemini/parse-request.js';
import { serializeGeminiResult } from '../../../../src/dialects/gemini/serialize-result.js';
import { GeminiStreamSerializer } from '../../../../src/dialects/gemini/serialize-stream.js';
import { JsonArrayFraming } from '../../../../src/dialects/gemini/stream-framing.js';
import { Sealer } from '../../../../src/dialects/sealer.js';
import { invalidRequest, ProxyError } from '../../../../src/errors/proxy-error.js';
import type { NeutralResult } from '../../../../src/model/result.js';
import type { StreamEvent } from '../../../../src/model/stream-event.js';

const request = (generationConfig: object = {}) =>
  parseGeminiRequest({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig }, { model: 'gemini-x', stream: false });
const result = (choice: Partial<NeutralResult['choices'][0]>, usage?: NeutralResult['usage']): NeutralResult => ({
  id: 'r1',
  model: 'up',
  created: 1,
  choices: [{ index: 0, text: '', finishReason: 'stop', ...choice }],
  ...(usage ? { usage } : {}),
});

describe('serializeGeminiResult', () => {
  test('parts in order, the caller model as modelVersion, thoughts counted apart', () => {
    const body = serializeGeminiResult(
      result(
        { text: 'Hi.', reasoning: 'Think.', toolCalls: [{ id: 'c1', name: 'f', arguments: '{"a":1}' }], finishReason: 'tool_calls' },
        { promptTokens: 10, completionTokens: 8, totalTokens: 18, reasoningTokens: 3, cachedPromptTokens: 4 },
      ),
      request({ thinkingConfig: { includeThoughts: true } }),
    );
    expect(body).toEqual({
      candidates: [
        {
          content: {
            parts: [{ text: 'Think.', thought: true }, { text: 'Hi.' }, { functionCall: { id: 'c1', name: 'f', args: { a: 1 } } }],
            role: 'model',
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 10,
        candidatesTokenCount: 5,
        thoughtsTokenCount: 3,
        cachedContentTokenCount: 4,
        totalTokenCount: 18,
      },
      modelVersion: 'gemini-x',
      responseId: 'r1',
    });
  });

  test('thoughts only with includeThoughts; finish reasons mapped; a malformed call is MALFORMED_FUNCTION_CALL', () => {
    const plain = serializeGeminiResult(result({ text: 'a', reasoning: 'hidden', finishReason: 'length' }), request());
    expect(plain.candidates).toEqual([{ content: { parts: [{ text: 'a' }], role: 'model' }, finishReason: 'MAX_TOKENS', index: 0 }]);
    const filtered = serializeGeminiResult(result({ finishReason: 'content_filter' }), request());
    expect((filtered.candidates as object[])[0]).toMatchObject({ finishReason: 'SAFETY' });
    const malformed = serializeGeminiResult(
      result({ toolCalls: [{ id: 'c', name: 'f', arguments: '{oops' }], finishReason: 'tool_calls' }),
      request(),
    );
    expect((malformed.candidates as object[])[0]).toMatchObject({
      finishReason: 'MALFORMED_FUNCTION_CALL',
      finishMessage: 'Malformed function call: f({oops)',
    });
  });

  test("a signed reasoning is sealed onto the first call's part, and opens again", () => {
    const sealer = Sealer.random();
    const body = serializeGeminiResult(
      result({
        reasoning: 'Think.',
        reasoningSignature: 'sig',
        toolCalls: [
          { id: 'c1', name: 'f', arguments: '{}' },
          { id: 'c2', name: 'g', arguments: '{}' },
        ],
      }),
      request(),
      { sealer },
    );
    const parts = (body.candidates as { content: { parts: Record<string, unknown>[] } }[])[0].content.parts;
    expect(parts[0].thoughtSignature).toMatch(/^dpx1\./);
    expect(parts[1].thoughtSignature).toBeUndefined();
    expect(sealer.open('thought-signature', parts[0].thoughtSignature, 'x')).toEqual({ text: 'Think.', signature: 'sig' });
  });

  test('several choices are several candidates', () => {
    const body = serializeGeminiResult(
      { ...result({ text: 'a' }), choices: [0, 1].map((index) => ({ index, text: `t${index}`, finishReason: 'stop' as const })) },
      request(),
    );
    expect((body.candidates as { index: number }[]).map(({ index }) => index)).toEqual([0, 1]);
  });
});

describe('GeminiStreamSerializer', () => {
  const run = (events: StreamEvent[], generationConfig: object = {}, sealer?: Sealer) => {
    const serializer = new GeminiStreamSerializer(request(generationConfig), sealer ? { sealer } : undefined);
    const out: Record<string, unknown>[] = [];
    for (const event of events) serializer.push(event, out);
    if (!serializer.ended) serializer.finish(out);
    return out;
  };
  const start: StreamEvent = { type: 'response-start', id: 'r2', model: 'up', created: 1 };

  test('text as it arrives, a call whole at its end with the sealed signature, the finish and usage last', () => {
    const sealer = Sealer.random();
    const chunks = run(
      [
        start,
        { type: 'reasoning-delta', choice: 0, delta: 'Hmm.' },
        { type: 'reasoning-signature', choice: 0, signature: 'sig' },
        { type: 'text-delta', choice: 0, delta: 'Ok' },
        { type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'f', argumentsDelta: '{"a"' },
        { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: ':1}' },
        { type: 'choice-end', choice: 0, finishReason: 'tool_calls' },
        { type: 'usage', usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 } },
      ],
      { thinkingConfig: { includeThoughts: true } },
      sealer,
    );
    const parts = chunks.map((chunk) => (chunk.candidates as { content?: { parts: Record<string, unknown>[] } }[])[0].content?.parts);
    expect(parts[0]).toEqual([{ text: 'Hmm.', thought: true }]);
    expect(parts[1]).toEqual([{ text: 'Ok' }]);
    expect(parts[2]).toEqual([
      { functionCall: { id: 'c1', name: 'f', args: { a: 1 } }, thoughtSignature: expect.stringMatching(/^dpx1\./) },
    ]);
    expect(chunks[3]).toEqual({
      candidates: [{ finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, totalTokenCount: 7 },
      modelVersion: 'gemini-x',
      responseId: 'r2',
    });
  });

  test('reasoning longer than limits.repeatedOutputBytes is sealed without its text (memory stays bounded), its signature kept', () => {
    const sealer = Sealer.random();
    const serializer = new GeminiStreamSerializer(request(), { sealer, limits: { repeatedOutputBytes: 8 } });
    const out: Record<string, unknown>[] = [];
    for (const event of [
      start,
      { type: 'reasoning-delta', choice: 0, delta: 'Hmm, ' },
      { type: 'reasoning-delta', choice: 0, delta: 'and more.' },
      { type: 'reasoning-signature', choice: 0, signature: 'sig' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'f', argumentsDelta: '{}' },
      { type: 'choice-end', choice: 0, finishReason: 'tool_calls' },
    ] satisfies StreamEvent[])
      serializer.push(event, out);
    serializer.finish(out);
    const call = out.flatMap(
      (chunk) => (chunk.candidates as { content?: { parts: Record<string, unknown>[] } }[])[0].content?.parts ?? [],
    )[0];
    expect(sealer.open('thought-signature', call.thoughtSignature as string, 'x')).toEqual({ signature: 'sig' });
  });

  test('without includeThoughts no thought part; a signature no call carried goes on an empty last part', () => {
    const chunks = run(
      [
        start,
        { type: 'reasoning-delta', choice: 0, delta: 'x' },
        { type: 'reasoning-signature', choice: 0, signature: 's' },
        { type: 'text-delta', choice: 0, delta: 'A' },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
      ],
      {},
      Sealer.random(),
    );
    expect(chunks).toHaveLength(2);
    expect(chunks[1].candidates).toEqual([
      {
        content: { parts: [{ text: '', thoughtSignature: expect.stringMatching(/^dpx1\./) }], role: 'model' },
        finishReason: 'STOP',
        index: 0,
      },
    ]);
  });

  test('a failure is a final error chunk in Google shape, and nothing after it', () => {
    const chunks = run([
      start,
      { type: 'text-delta', choice: 0, delta: 'A' },
      { type: 'error', error: new ProxyError({ status: 503, type: 'server_error', message: 'busy' }) },
      { type: 'text-delta', choice: 0, delta: 'B' },
    ]);
    expect(chunks.at(-1)).toEqual({ error: { code: 503, message: 'busy', status: 'UNAVAILABLE' } });
    expect(chunks).toHaveLength(2);
  });
});

describe('errors, URLs and framings', () => {
  test("errors: Google's status names, the field in a BadRequest's fieldViolations", () => {
    expect(geminiErrorBody(invalidRequest('generationConfig.topK', 'must be an integer.'))).toEqual({
      error: {
        code: 400,
        message: 'generationConfig.topK: must be an integer.',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'generationConfig.topK', description: 'must be an integer.' }],
          },
        ],
      },
    });
    const names = [401, 403, 404, 429, 500, 503].map(
      (status) => (geminiErrorBody(new ProxyError({ status, type: 'server_error', message: 'm' })).error as { status: string }).status,
    );
    expect(names).toEqual(['UNAUTHENTICATED', 'PERMISSION_DENIED', 'NOT_FOUND', 'RESOURCE_EXHAUSTED', 'INTERNAL', 'UNAVAILABLE']);
  });

  test('the URL: model, method and alt; /v1 too; anything else none', () => {
    expect(geminiCallOf('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse&key=k')).toEqual({
      model: 'gemini-2.5-pro',
      method: 'streamGenerateContent',
      sse: true,
    });
    expect(geminiCallOf('/v1/models/accounts%2Ffw%2Fmodels%2Fx:generateContent')).toEqual({
      model: 'accounts/fw/models/x',
      method: 'generateContent',
      sse: false,
    });
    expect(geminiCallOf('/v1beta/models/x:embedContent')).toBeUndefined();
    expect(geminiCallOf('/v1beta/models/x')).toBeUndefined();
  });

  test('the bound dialect: the URL model parsed, the JSON array framed as Google sends it', () => {
    const bound = geminiDialect.route?.match('/v1beta/models/m1:streamGenerateContent');
    expect(bound?.countTokens).toBe(false);
    expect(bound?.dialect.parseRequest({ contents: [] })).toMatchObject({ model: 'm1', stream: { includeUsage: true } });
    const framing = bound?.dialect.sse as JsonArrayFraming;
    const text = framing.frame({ a: 1 }) + framing.frame({ b: 2 }) + framing.end;
    expect(text).toBe('[{"a":1}\n,\r\n{"b":2}\n]');
    expect(JSON.parse(text)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(bound?.dialect.sse.headers?.['content-type']).toBe('application/json; charset=UTF-8');
    expect(geminiDialect.route?.match('/v1beta/models/m1:countTokens')?.countTokens).toBe(true);
    expect(geminiDialect.route?.match('/v1beta/models/m1:streamGenerateContent?alt=sse')?.dialect.sse.frame({ a: 1 })).toBe(
      'data: {"a":1}\r\n\r\n',
    );
  });

  test('a bound dialect is kept for its URL, but not with a key in the query, nor with the JSON array (one stream state)', () => {
    const match = (url: string) => geminiDialect.route?.match(url)?.dialect;
    const sse = '/v1beta/models/kept:streamGenerateContent?alt=sse';
    expect(match(sse)).toBe(match(sse));
    expect(match('/v1beta/models/kept:generateContent')).toBe(match('/v1beta/models/kept:generateContent'));
    expect(match(`${sse}&key=k`)).not.toBe(match(`${sse}&key=k`));
    const array = '/v1beta/models/kept:streamGenerateContent';
    expect(match(array)).not.toBe(match(array));
    expect(match(array)?.sse).not.toBe(match(array)?.sse);
    // Another model, another dialect.
    expect(match('/v1beta/models/other:streamGenerateContent?alt=sse')?.parseRequest({ contents: [] }).model).toBe('other');
  });
});
