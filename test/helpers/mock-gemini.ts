/**
 * A strict stand-in for Google's Gemini API on 127.0.0.1, under `/v1beta`:
 * `POST /models/{model}:generateContent`, `:streamGenerateContent?alt=sse` and
 * `:countTokens`, with Google's error shape (`{error: {code, message, status}}`).
 * Refused as Gemini refuses them: no `x-goog-api-key` (or an `Authorization`
 * header), a key it does not know anywhere in the body (Google's "Unknown name"
 * 400), roles other than user and model or two turns of one role in a row, a
 * functionCall whose `args` is not an object, a model turn whose first
 * functionCall has no thoughtSignature or one this server never gave (Gemini 3's
 * 400; Google's bypass value passes), a function response whose name matches no
 * earlier call, and a `parameters` schema with a keyword Google's Schema lacks.
 * Every request is recorded; the answer comes from a script.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordRequest, type RecordedRequest } from './mock-upstream.js';

export type GeminiReply =
  /** A GenerateContentResponse (geminiResponse() fills what is left out). */
  | { response: Record<string, unknown> }
  /** SSE chunks, each a GenerateContentResponse, sent as they are. */
  | { chunks: Record<string, unknown>[]; delayMs?: number }
  /** An error in Google's shape. */
  | { status: number; error: { message: string; status: string; details?: unknown[] }; headers?: Record<string, string> };

export type GeminiScript = GeminiReply | ((request: RecordedRequest, index: number) => GeminiReply);

export interface MockGemini {
  /** The API base, ending in /v1beta. */
  url: string;
  /** Every request received, refused ones included. */
  requests: RecordedRequest[];
  reply(script: GeminiScript): void;
  close(): Promise<void>;
}

/** Google's documented value for a functionCall that has no signature of its own. */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

const REQUEST_KEYS = ['contents', 'tools', 'toolConfig', 'safetySettings', 'systemInstruction', 'generationConfig', 'cachedContent'];
const GENERATION_KEYS = [
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'enableEnhancedCivicAnswers',
  'speechConfig',
  'thinkingConfig',
  'mediaResolution',
];
const PART_KEYS = ['text', 'thought', 'thoughtSignature', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'videoMetadata'];
/** Google's Schema type: what a function's `parameters` may hold. */
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A whole answer: `partial` over one candidate that said "Hello!" and stopped. */
export function geminiResponse(partial: Json = {}): Json {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text: 'Hello!' }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 },
    modelVersion: 'gemini-test',
    responseId: 'resp-1',
    ...partial,
  };
}

/** The chunks of a streamed text answer: one per piece, the last with the finish reason and usage. */
export function textChunks(pieces: string[], finishReason = 'STOP'): Json[] {
  return pieces.map((text, i) => ({
    candidates: [
      {
        content: { role: 'model', parts: [{ text }] },
        index: 0,
        ...(i === pieces.length - 1 ? { finishReason } : {}),
      },
    ],
    usageMetadata: {
      promptTokenCount: 10,
      ...(i === pieces.length - 1 ? { candidatesTokenCount: pieces.length, totalTokenCount: 10 + pieces.length } : {}),
    },
    modelVersion: 'gemini-test',
    responseId: 'resp-s',
  }));
}

/** A status of Google's error shape. */
function googleError(code: number, status: string, message: string): { status: number; error: { message: string; status: string } } {
  return { status: code, error: { message, status } };
}

const invalid = (message: string) => googleError(400, 'INVALID_ARGUMENT', message);

function unknownKeys(value: unknown, allowed: readonly string[], at: string): string | undefined {
  if (!isObject(value)) return `Invalid value at '${at}': not an object`;
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  return extra === undefined ? undefined : `Invalid JSON payload received. Unknown name "${extra}" at '${at}': Cannot find field.`;
}

function schemaProblem(schema: unknown, at: string): string | undefined {
  if (!isObject(schema)) return undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_KEYS.has(key)) return `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`;
    if (key === 'properties' && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        const problem = schemaProblem(sub, `${at}.properties[${name}].value`);
        if (problem) return problem;
      }
    }
    if (key === 'items') {
      const problem = schemaProblem(value, `${at}.items`);
      if (problem) return problem;
    }
    if (key === 'anyOf' && Array.isArray(value)) {
      for (const [i, sub] of value.entries()) {
        const problem = schemaProblem(sub, `${at}.any_of[${i}]`);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/** What the real API would refuse in this request; undefined when it is well formed. */
export function refusal(request: RecordedRequest, signatures: ReadonlySet<string>): ReturnType<typeof googleError> | undefined {
  if (request.headers.authorization !== undefined)
    return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials (Authorization sent).');
  if (!request.headers['x-goog-api-key'])
    return googleError(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers. Please use API Key.");
  const wire = request.body;
  if (!isObject(wire)) return invalid('Invalid JSON payload received.');
  const method = /:(\w+)/.exec(request.path)?.[1];
  const body = method === 'countTokens' && isObject(wire.generateContentRequest) ? wire.generateContentRequest : wire;
  const keys = method === 'countTokens' ? [...REQUEST_KEYS, 'model'] : REQUEST_KEYS;
  const problem =
    (method === 'countTokens' ? unknownKeys(wire, ['contents', 'generateContentRequest'], 'count_tokens_request') : undefined) ??
    unknownKeys(body, keys, 'generate_content_request') ??
    (body.generationConfig === undefined ? undefined : unknownKeys(body.generationConfig, GENERATION_KEYS, 'generation_config')) ??
    (isObject(body.generationConfig) && body.generationConfig.thinkingConfig !== undefined
      ? unknownKeys(
          body.generationConfig.thinkingConfig,
          ['includeThoughts', 'thinkingBudget', 'thinkingLevel'],
          'generation_config.thinking_config',
        )
      : undefined) ??
    (body.toolConfig === undefined ? undefined : unknownKeys(body.toolConfig, ['functionCallingConfig'], 'tool_config')) ??
    (isObject(body.toolConfig)
      ? unknownKeys(body.toolConfig.functionCallingConfig, ['mode', 'allowedFunctionNames'], 'tool_config.function_calling_config')
      : undefined) ??
    (body.systemInstruction === undefined ? undefined : unknownKeys(body.systemInstruction, ['role', 'parts'], 'system_instruction')) ??
    toolsProblem(body.tools) ??
    contentsProblem(body.contents, signatures);
  return problem === undefined ? undefined : invalid(problem);
}

function toolsProblem(tools: unknown): string | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return "Invalid value at 'tools': not a list";
  for (const [i, tool] of tools.entries()) {
    const problem = unknownKeys(tool, ['functionDeclarations'], `tools[${i}]`);
    if (problem) return problem;
    for (const [j, declaration] of ((tool as Json).functionDeclarations as unknown[]).entries()) {
      const at = `tools[${i}].function_declarations[${j}]`;
      const keys = unknownKeys(
        declaration,
        ['name', 'description', 'parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema'],
        at,
      );
      if (keys) return keys;
      const schema = schemaProblem((declaration as Json).parameters, `${at}.parameters`);
      if (schema) return schema;
    }
  }
  return undefined;
}

function contentsProblem(contents: unknown, signatures: ReadonlySet<string>): string | undefined {
  if (!Array.isArray(contents) || contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified';
  const calls = new Set<string>();
  let previous: unknown;
  for (const [i, content] of contents.entries()) {
    const at = `contents[${i}]`;
    const keys = unknownKeys(content, ['role', 'parts'], at);
    if (keys) return keys;
    const { role, parts } = content as Json;
    if (role !== 'user' && role !== 'model') return `Please use a valid role: user, model. (${at})`;
    if (role === previous) return `${at}: Please ensure that multiturn requests alternate between user and model.`;
    previous = role;
    if (!Array.isArray(parts) || parts.length === 0) return `* GenerateContentRequest.${at}.parts: contents.parts must not be empty.`;
    let firstCall = true;
    for (const [j, part] of parts.entries()) {
      const partKeys = unknownKeys(part, PART_KEYS, `${at}.parts[${j}]`);
      if (partKeys) return partKeys;
      const { functionCall, functionResponse, thoughtSignature } = part as Json;
      if (functionCall !== undefined) {
        const callKeys = unknownKeys(functionCall, ['id', 'name', 'args'], `${at}.parts[${j}].function_call`);
        if (callKeys) return callKeys;
        const call = functionCall as Json;
        if (!isObject(call.args)) return `Invalid value at '${at}.parts[${j}].function_call.args': not an object`;
        if (
          firstCall &&
          (typeof thoughtSignature !== 'string' || (thoughtSignature !== SKIP_SIGNATURE && !signatures.has(thoughtSignature)))
        )
          return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(call.name)}\` , position ${j + 1}.`;
        firstCall = false;
        calls.add(String(call.name));
      }
      if (functionResponse !== undefined) {
        const responseKeys = unknownKeys(functionResponse, ['id', 'name', 'response'], `${at}.parts[${j}].function_response`);
        if (responseKeys) return responseKeys;
        const response = functionResponse as Json;
        if (!isObject(response.response)) return `Invalid value at '${at}.parts[${j}].function_response.response': not an object`;
        if (!calls.has(String(response.name)))
          return `${at}.parts[${j}]: function response ${String(response.name)} answers no function call`;
      }
    }
  }
  return undefined;
}

/** Every thoughtSignature of an answer, so the server knows the ones it gave. */
function signaturesIn(reply: Json, into: Set<string>): void {
  for (const candidate of (reply.candidates as unknown[] | undefined) ?? []) {
    const parts = isObject(candidate) && isObject(candidate.content) ? candidate.content.parts : undefined;
    for (const part of Array.isArray(parts) ? parts : [])
      if (isObject(part) && typeof part.thoughtSignature === 'string') into.add(part.thoughtSignature);
  }
}

export async function startMockGemini(initial?: GeminiScript): Promise<MockGemini> {
  let script: GeminiScript | undefined = initial;
  const requests: RecordedRequest[] = [];
  const signatures = new Set<string>();
  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const recorded = await recordRequest(req);
    const index = requests.push(recorded) - 1;
    const route = /^\/v1beta\/models\/([^/:?]+):(generateContent|streamGenerateContent\?alt=sse|countTokens)$/.exec(recorded.path);
    if (recorded.method === 'GET' && recorded.path === '/v1beta/models') {
      send(res, 200, { models: [{ name: 'models/gemini-test', supportedGenerationMethods: ['generateContent', 'countTokens'] }] });
      return;
    }
    if (recorded.method !== 'POST' || !route) {
      send(res, 404, { error: { code: 404, message: `Not found: ${recorded.method} ${recorded.path}`, status: 'NOT_FOUND' } });
      return;
    }
    const refused = refusal(recorded, signatures);
    const reply: GeminiReply | undefined =
      refused ??
      (route[2] === 'countTokens' ? { response: { totalTokens: 42 } } : typeof script === 'function' ? script(recorded, index) : script);
    if (!reply) {
      send(res, 500, { error: { code: 500, message: 'no script', status: 'INTERNAL' } });
      return;
    }
    if ('error' in reply) {
      send(res, reply.status, { error: { code: reply.status, ...reply.error } }, reply.headers);
      return;
    }
    if ('response' in reply) {
      const body = route[2] === 'countTokens' ? reply.response : geminiResponse(reply.response);
      signaturesIn(body, signatures);
      send(res, 200, body);
      return;
    }
    if (!route[2].startsWith('stream')) {
      send(res, 500, { error: { code: 500, message: 'a stream scripted for generateContent', status: 'INTERNAL' } });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of reply.chunks) {
      if (res.destroyed) return;
      signaturesIn(chunk, signatures);
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1beta`,
    requests,
    reply(next) {
      script = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
}
