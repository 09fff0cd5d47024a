/** Gemini bodies -> the neutral request: a small body in, the exact fields out, and each refusal naming the caller's field. */
import { geminiDialect } from '../../../../src/dialects/gemini/index.js';
import { parseGeminiRequest } from '../../../../src/dialects/gemini/parse-request.js';
import { Sealer } from '../../../../src/dialects/sealer.js';
import { ProxyError } from '../../../../src/errors/proxy-error.js';

const url = { model: 'gemini-2.5-pro', stream: false };
const user = (text: string) => ({ role: 'user', parts: [{ text }] });
const parse = (body: Record<string, unknown>, context = {}) => parseGeminiRequest(body, url, {}, context);
const refusal = (body: Record<string, unknown>) => {
  try {
    parse(body);
  } catch (error) {
    return { param: (error as ProxyError).param, message: (error as ProxyError).message };
  }
  throw new Error('not refused');
};

describe('parseGeminiRequest', () => {
  test('the model and stream come from the URL; the system instruction goes first whatever its role', () => {
    const request = parseGeminiRequest(
      { contents: [user('Hi')], systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] } },
      { model: 'm', stream: true },
    );
    expect(request.model).toBe('m');
    expect(request.stream).toEqual({ includeUsage: true, tokenIds: false });
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief.\nBe kind.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  test('generationConfig opened into dotted fields, each to its neutral field', () => {
    const request = parse({
      contents: [user('Hi')],
      generationConfig: {
        temperature: 0.3,
        topP: 0.8,
        topK: 20,
        candidateCount: 2,
        maxOutputTokens: 99,
        stopSequences: ['X'],
        seed: 3,
        thinkingConfig: { thinkingBudget: 0, includeThoughts: true },
      },
    });
    expect(request.sampling).toEqual({ temperature: 0.3, topP: 0.8, topK: 20, seed: 3 });
    expect(request.choices).toBe(2);
    expect(request.limits).toMatchObject({ maxTokens: 99, stop: ['X'] });
    expect(request.reasoning).toEqual({ effort: 'none', offered: true });
    expect(request.echoedParams).toMatchObject({ includeThoughts: true });
    expect(request.origins['sampling.topK']).toBe('generationConfig.topK');
    expect(request.offeredPaths).toEqual(['sampling.topP', 'sampling.topK']);
  });

  test('thinking: a budget, dynamic (-1) is adaptive, a level is an effort, both together a 400', () => {
    const thinking = (thinkingConfig: object) => parse({ contents: [user('Hi')], generationConfig: { thinkingConfig } }).reasoning;
    expect(thinking({ thinkingBudget: 4096 })).toEqual({ budgetTokens: 4096, offered: true });
    expect(thinking({ thinkingBudget: -1 })).toEqual({ effort: 'adaptive', offered: true });
    expect(thinking({ thinkingLevel: 'HIGH' })).toEqual({ effort: 'high', offered: true });
    expect(refusal({ contents: [], generationConfig: { thinkingConfig: { thinkingBudget: 1, thinkingLevel: 'LOW' } } }).param).toBe(
      'generationConfig.thinkingConfig.thinkingLevel',
    );
  });

  test('a tool loop: functionCall ids kept (or made from the place), functionResponse answers the pending call by name', () => {
    const request = parse({
      contents: [
        user('Weather?'),
        { role: 'model', parts: [{ text: 'Let me look.' }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { t: 18 } } }, { text: 'And Paris?' }] },
      ],
    });
    const id = request.messages?.[1].toolCalls?.[0].id;
    expect(request.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: 'Let me look.', toolCalls: [{ id, name: 'get_weather', arguments: '{"city":"Rome"}' }] },
      { role: 'tool', toolCallId: id, content: '{"t":18}' },
      { role: 'user', content: 'And Paris?' },
    ]);
  });

  test('thought parts of a model turn are its reasoning; media parts become image, audio and file parts', () => {
    const request = parse({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Look:' },
            { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
            { inlineData: { mimeType: 'audio/wav', data: 'UklG' } },
            { inlineData: { mimeType: 'application/pdf', data: 'JVBE', displayName: 'a.pdf' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
          ],
        },
        { role: 'model', parts: [{ text: 'Hmm.', thought: true }, { text: 'A cat.' }] },
      ],
    });
    expect(request.messages?.[0].content).toEqual([
      { type: 'text', text: 'Look:' },
      { type: 'image', url: 'data:image/png;base64,iVBOR' },
      { type: 'audio', data: 'UklG', format: 'wav' },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
      { type: 'image', url: 'https://example.com/a.jpg' },
    ]);
    expect(request.messages?.[1]).toEqual({ role: 'assistant', content: 'A cat.', reasoning: 'Hmm.' });
  });

  test('tools: Google Schema as JSON Schema, parametersJsonSchema as is, Google tools dropped by name', () => {
    const request = parse({
      contents: [user('Hi')],
      tools: [
        { googleSearch: {} },
        {
          functionDeclarations: [
            { name: 'a', parameters: { type: 'OBJECT', properties: { x: { type: 'STRING', nullable: true } }, propertyOrdering: ['x'] } },
            { name: 'b', parametersJsonSchema: { type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' } },
          ],
        },
      ],
    });
    expect(request.tools).toEqual([
      { name: 'a', parameters: { type: 'object', properties: { x: { type: ['string', 'null'] } } } },
      { name: 'b', parameters: { type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' } },
    ]);
    expect(request.warnings).toEqual([expect.stringContaining("tools[0].googleSearch: Google's googleSearch tool runs at Google")]);
  });

  test('functionCallingConfig: AUTO, NONE, ANY with one or several names, VALIDATED', () => {
    const tools = [{ functionDeclarations: [{ name: 'a', parameters: { type: 'OBJECT' } }, { name: 'b' }, { name: 'c' }] }];
    const choice = (functionCallingConfig: object) => parse({ contents: [user('Hi')], tools, toolConfig: { functionCallingConfig } });
    expect(choice({ mode: 'AUTO' }).toolChoice).toBe('auto');
    expect(choice({ mode: 'NONE' }).toolChoice).toBe('none');
    expect(choice({ mode: 'ANY' }).toolChoice).toBe('required');
    expect(choice({ mode: 'ANY', allowedFunctionNames: ['b'] }).toolChoice).toEqual({ name: 'b' });
    const several = choice({ mode: 'ANY', allowedFunctionNames: ['a', 'c'] });
    expect([several.toolChoice, several.tools?.map(({ name }) => name)]).toEqual(['required', ['a', 'c']]);
    expect(choice({ mode: 'VALIDATED' }).tools?.[0]).toMatchObject({ name: 'a', strict: true });
    expect(
      refusal({ contents: [], tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['zz'] } } }).param,
    ).toBe('toolConfig.functionCallingConfig.allowedFunctionNames');
  });

  test('responseMimeType with a schema is json_schema; text/x.enum and cachedContent are refused by name', () => {
    const request = parse({
      contents: [user('Hi')],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { a: { type: 'INTEGER' } } },
      },
    });
    expect(request.responseFormat).toEqual({ type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'integer' } } } });
    expect(refusal({ contents: [], generationConfig: { responseMimeType: 'text/x.enum' } }).param).toBe(
      'generationConfig.responseMimeType',
    );
    expect(refusal({ contents: [], cachedContent: 'cachedContents/x' }).param).toBe('cachedContent');
    expect(refusal({ contents: [], generationConfig: { responseSchema: { type: 'STRING' } } }).param).toBe(
      'generationConfig.responseSchema',
    );
    expect(refusal({ contents: [], generationConfig: { nope: 1 } }).param).toBe('generationConfig.nope');
  });

  test('offered options are dropped with a warning each: safetySettings, labels, a media hint', () => {
    const request = parse({
      contents: [{ role: 'user', parts: [{ text: 'Hi', partMetadata: { a: 1 } }] }],
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      labels: { team: 'x' },
    });
    expect(request.warnings.map((warning) => warning.split(':')[0])).toEqual([
      'contents[0].parts[0].partMetadata',
      'safetySettings',
      'labels',
    ]);
  });

  describe('thoughtSignature', () => {
    const sealer = Sealer.random();
    const turn = (thoughtSignature: string) => ({
      contents: [
        user('Weather?'),
        { role: 'model', parts: [{ functionCall: { id: 'toolu_1', name: 'w', args: {} }, thoughtSignature }] },
        { role: 'user', parts: [{ functionResponse: { id: 'toolu_1', name: 'w', response: {} } }] },
      ],
    });

    test("the proxy's own, sealed: the reasoning and Anthropic's signature restored on the model turn", () => {
      const sealed = sealer.seal('thought-signature', { text: 'Think.', signature: 'sig-1', redacted: ['r1'] });
      const request = parse(turn(sealed), { sealer });
      expect(request.messages?.[1]).toMatchObject({
        reasoning: 'Think.',
        reasoningSignature: 'sig-1',
        vendor: { anthropic: { redactedReasoning: ['r1'] } },
      });
      expect(request.warnings).toEqual([]);
    });

    test("another's (Google's, recorded) is left out with one warning per request", () => {
      const body = turn('bW9jaw==');
      (body.contents[1].parts as object[]).push({ functionCall: { id: 'toolu_2', name: 'w', args: {} }, thoughtSignature: 'b3RoZXI=' });
      const request = parse(body, { sealer });
      expect(request.messages?.[1].reasoningSignature).toBeUndefined();
      expect(request.warnings).toEqual([
        expect.stringMatching(/^contents\[1\]\.parts\[0\]\.thoughtSignature: a thoughtSignature this proxy did not make/),
      ]);
    });

    test('one of the proxy altered, or sealed for another purpose, is a 400 naming it', () => {
      const other = sealer.seal('reasoning', { text: 'x' });
      expect(() => parse(turn(other), { sealer })).toThrow(ProxyError);
      try {
        parse(turn(other), { sealer });
      } catch (error) {
        expect((error as ProxyError).param).toBe('contents[1].parts[0].thoughtSignature');
      }
    });
  });

  test('the unbound dialect (offline commands) takes the model beside the body', () => {
    expect(geminiDialect.parseRequest({ model: 'x', contents: [user('Hi')] }).model).toBe('x');
  });
});
