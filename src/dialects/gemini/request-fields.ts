/**
 * Every field of Gemini's `generateContent` body with its fate (@google/genai's GenerateContentParameters
 * as sent to the Gemini API). The option objects `toolConfig`, `generationConfig` and its `thinkingConfig`
 * are opened into dotted rows (`generationConfig.temperature`), so each of their fields has a fate of its
 * own and an error names it as the caller wrote it. The model is the URL's, never the body's.
 */
import { invalidRequest, unsupportedParameter } from '../../errors/proxy-error.js';
import { isRecord } from '../../model/is-record.js';
import { isSet } from '../../model/is-set.js';
import type { Effort, NeutralRequest, ResponseFormat, ToolChoice, ToolDefinition } from '../../model/request.js';
import { requires, type CrossFieldRule } from '../cross-field-rules.js';
import { copyTo, mapWith, offerTo, reject, setPath, type FieldRule, type FieldTable } from '../field-table.js';
import { object, text } from '../wire-values.js';
import { droppedGoogleTool, GOOGLE_TOOLS } from './google-tools.js';
import { jsonSchemaOf } from './json-schema-of.js';
import { parseContents, parseSystemInstruction } from './parse-contents.js';

export type GeminiField =
  | 'model'
  | 'contents'
  | 'systemInstruction'
  | 'tools'
  | 'toolConfig.functionCallingConfig'
  | 'toolConfig.retrievalConfig'
  | 'toolConfig.includeServerSideToolInvocations'
  | 'generationConfig.temperature'
  | 'generationConfig.topP'
  | 'generationConfig.topK'
  | 'generationConfig.candidateCount'
  | 'generationConfig.maxOutputTokens'
  | 'generationConfig.stopSequences'
  | 'generationConfig.presencePenalty'
  | 'generationConfig.frequencyPenalty'
  | 'generationConfig.seed'
  | 'generationConfig.responseMimeType'
  | 'generationConfig.responseSchema'
  | 'generationConfig.responseJsonSchema'
  | 'generationConfig.responseLogprobs'
  | 'generationConfig.logprobs'
  | 'generationConfig.responseModalities'
  | 'generationConfig.mediaResolution'
  | 'generationConfig.speechConfig'
  | 'generationConfig.enableEnhancedCivicAnswers'
  | 'generationConfig.thinkingConfig.includeThoughts'
  | 'generationConfig.thinkingConfig.thinkingBudget'
  | 'generationConfig.thinkingConfig.thinkingLevel'
  | 'safetySettings'
  | 'cachedContent'
  | 'labels';

/** The option objects opened into dotted rows, outermost first. */
export const OPENED_OBJECTS = ['toolConfig', 'generationConfig', 'generationConfig.thinkingConfig'] as const;

const THINKING_LEVELS: Readonly<Record<string, Effort | undefined>> = {
  THINKING_LEVEL_UNSPECIFIED: undefined,
  MINIMAL: 'minimal',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
};

/** A named, lossy drop: the caller offered something no backend here has. */
function offered(note: string, warning: (field: string) => string): FieldRule {
  return mapWith(note, (_value, { request, field }) => {
    request.warnings.push(warning(field));
  });
}

/** A row whose value another row reads (the schema beside responseMimeType): nothing of its own to write. */
function readBy(note: string): FieldRule {
  return mapWith(note, () => undefined);
}

export const geminiFields: FieldTable<GeminiField> = {
  model: mapWith(
    "the model where no URL names one (the offline commands); the URL's wins, as Google's does",
    (value, { request, field }) => {
      if (request.model !== '') return;
      const model = text(value, field).replace(/^models\//, '');
      setPath(request, 'model', model, field);
      (request.echoedParams ??= {}).model = model;
    },
  ),
  contents: mapWith(
    'messages (model turns -> assistant: thought parts -> reasoning, functionCall -> tool calls, a sealed thoughtSignature -> signed reasoning; functionResponse parts -> tool messages)',
    (value, { request, field, dialect }) => {
      setPath(request, 'messages', [...(request.messages ?? []), ...parseContents(value, field, request.warnings, dialect)], field);
    },
  ),
  systemInstruction: mapWith(
    'a system message before the conversation (its role ignored, as Google ignores it)',
    (value, { request, field }) => {
      request.messages = [parseSystemInstruction(value, field), ...(request.messages ?? [])];
      request.origins.messages ??= field;
    },
  ),
  tools: mapWith(
    "tools (functionDeclarations with parameters or parametersJsonSchema); Google's own tools offered (googleSearch, codeExecution, urlContext...) are dropped with a warning",
    (value, { request, field }) => {
      if (!Array.isArray(value)) throw invalidRequest(field, `${field} must be an array.`);
      const tools = value.flatMap((tool, i) => parseTool(object(tool, `${field}[${i}]`), `${field}[${i}]`, request.warnings));
      if (tools.length > 0) setPath(request, 'tools', tools, field);
    },
  ),
  'toolConfig.functionCallingConfig': mapWith(
    'toolChoice: AUTO -> auto, ANY -> required (one allowed name: that tool; several: only those tools offered), NONE -> none, VALIDATED -> auto with strict tools',
    (value, { request, field }) => applyFunctionCalling(object(value, field), request, field),
  ),
  'toolConfig.retrievalConfig': offered(
    "the location Google's Maps and Search tools use: dropped with a warning",
    (field) => `${field}: the location for Google's own tools was left out: no backend here runs them`,
  ),
  'toolConfig.includeServerSideToolInvocations': offered(
    "Google's own tools' calls in the answer: dropped with a warning",
    (field) => `${field}: no backend here runs Google's own tools, so there are no such calls to include`,
  ),
  'generationConfig.temperature': copyTo('sampling.temperature'),
  // Sampling hints, offered (Gemini CLI sends topP and topK on every request): how tokens are drawn, not what the answer holds.
  'generationConfig.topP': offerTo('sampling.topP'),
  'generationConfig.topK': offerTo('sampling.topK'),
  'generationConfig.candidateCount': copyTo('choices'),
  'generationConfig.maxOutputTokens': copyTo('limits.maxTokens'),
  'generationConfig.stopSequences': copyTo('limits.stop'),
  'generationConfig.presencePenalty': offerTo('sampling.presencePenalty'),
  'generationConfig.frequencyPenalty': offerTo('sampling.frequencyPenalty'),
  'generationConfig.seed': copyTo('sampling.seed'),
  'generationConfig.responseMimeType': mapWith(
    'responseFormat: text/plain -> text, application/json -> json_object, or json_schema with responseSchema / responseJsonSchema',
    (value, { request, field, body }) => {
      const format = responseFormatOf(text(value, field), field, body);
      if (format) setPath(request, 'responseFormat', format, field);
    },
  ),
  'generationConfig.responseSchema': readBy("the json_schema of responseFormat (Google's Schema as JSON Schema), with responseMimeType"),
  'generationConfig.responseJsonSchema': readBy('the json_schema of responseFormat, with responseMimeType'),
  'generationConfig.responseLogprobs': mapWith(
    'logprobs (the top logprobs from generationConfig.logprobs)',
    (value, { request, field, body }) => {
      if (value !== true) return;
      const top = body['generationConfig.logprobs'];
      setPath(request, 'logprobs', { top: typeof top === 'number' ? top : 0, shape: 'chat' }, field);
    },
  ),
  'generationConfig.logprobs': readBy('how many top logprobs each token lists, with responseLogprobs'),
  'generationConfig.responseModalities': mapWith('TEXT only: the answer is text (other modalities are a 400)', (value, { field }) => {
    const modalities = Array.isArray(value) ? value : [];
    const other = modalities.find((modality) => modality !== 'TEXT' && modality !== 'MODALITY_UNSPECIFIED');
    if (other !== undefined)
      throw unsupportedParameter(field, `${field} ${String(other)} is not supported by this proxy: its backends answer with text.`);
  }),
  'generationConfig.mediaResolution': offered(
    'a hint about how Google reads media: dropped with a warning',
    (field) => `${field}: how Google reads media, which no backend here takes, was left out`,
  ),
  'generationConfig.speechConfig': reject('spoken answers: the proxy answers with text'),
  'generationConfig.enableEnhancedCivicAnswers': offered(
    'a Google service option: dropped with a warning',
    (field) => `${field}: Google's civic answers are Google's service, which no backend here is: left out`,
  ),
  'generationConfig.thinkingConfig.includeThoughts': mapWith(
    "the answer's thought parts (the backend's reasoning) appear: kept for the answer, not sent",
    (value, { request }) => {
      if (value === true) (request.echoedParams ??= {}).includeThoughts = true;
    },
  ),
  'generationConfig.thinkingConfig.thinkingBudget': mapWith(
    'reasoning (offered): 0 -> none, -1 (dynamic) -> adaptive, N -> budgetTokens N',
    (value, { request, field }) => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < -1)
        throw invalidRequest(field, `${field} must be an integer >= -1.`);
      if (value === 0) setPath(request, 'reasoning.effort', 'none', field);
      else if (value === -1) setPath(request, 'reasoning.effort', 'adaptive', field);
      else setPath(request, 'reasoning.budgetTokens', value, field);
      offer(request);
    },
  ),
  'generationConfig.thinkingConfig.thinkingLevel': mapWith(
    'reasoning.effort (offered): MINIMAL, LOW, MEDIUM, HIGH',
    (value, { request, field }) => {
      const effort = THINKING_LEVELS[text(value, field)];
      if (effort === undefined) return;
      setPath(request, 'reasoning.effort', effort, field);
      offer(request);
    },
  ),
  safetySettings: offered(
    "Google's safety filters: dropped with a warning (the backend's own policies apply)",
    (field) => `${field}: no backend here has Google's safety filters: the settings were left out`,
  ),
  cachedContent: reject('the proxy keeps no cached contents (cachedContents/...): send the contents themselves'),
  labels: offered(
    'billing labels (metadata): dropped with a warning',
    (field) => `${field}: billing labels were left out: no backend here takes them`,
  ),
};

/**
 * Google's thinking settings say what the model may do, not what the answer must hold (Gemini CLI sends a
 * budget on every request): a backend without them goes without, named in a warning.
 */
function offer(request: NeutralRequest): void {
  if (request.reasoning) request.reasoning.offered = true;
}

function parseTool(tool: Record<string, unknown>, at: string, warnings: string[]): ToolDefinition[] {
  for (const google of GOOGLE_TOOLS) if (isSet(tool[google])) warnings.push(droppedGoogleTool(at, google));
  const declarations = Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [];
  return declarations.map((declaration, i) =>
    parseDeclaration(object(declaration, `${at}.functionDeclarations[${i}]`), `${at}.functionDeclarations[${i}]`, warnings),
  );
}

function parseDeclaration(wire: Record<string, unknown>, at: string, warnings: string[]): ToolDefinition {
  const tool: ToolDefinition = { name: text(wire.name, `${at}.name`) };
  if (isSet(wire.description)) tool.description = text(wire.description, `${at}.description`);
  if (isSet(wire.parameters) && isSet(wire.parametersJsonSchema))
    throw invalidRequest(`${at}.parametersJsonSchema`, `${at}: parameters and parametersJsonSchema cannot both be set.`);
  if (isSet(wire.parameters)) tool.parameters = jsonSchemaOf(object(wire.parameters, `${at}.parameters`));
  if (isSet(wire.parametersJsonSchema)) tool.parameters = object(wire.parametersJsonSchema, `${at}.parametersJsonSchema`);
  if (isSet(wire.response) || isSet(wire.responseJsonSchema))
    warnings.push(`${at}: the schema of the function's response was left out: no backend here takes one`);
  if (wire.behavior === 'NON_BLOCKING') warnings.push(`${at}.behavior: NON_BLOCKING was left out: the call blocks`);
  return tool;
}

function applyFunctionCalling(config: Record<string, unknown>, request: NeutralRequest, field: string): void {
  const names = Array.isArray(config.allowedFunctionNames)
    ? config.allowedFunctionNames.map((name, i) => text(name, `${field}.allowedFunctionNames[${i}]`))
    : [];
  if (config.streamFunctionCallArguments === true)
    request.warnings.push(`${field}.streamFunctionCallArguments: a call's arguments come whole, as without it`);
  const mode = config.mode ?? 'AUTO';
  if (names.length > 0 && mode !== 'ANY')
    throw invalidRequest(`${field}.allowedFunctionNames`, `${field}.allowedFunctionNames is only allowed when mode is ANY.`);
  if (!request.tools?.length) {
    if (mode === 'ANY') throw invalidRequest(`${field}.mode`, `${field}.mode ANY requires tools with functionDeclarations.`);
    return;
  }
  for (const name of names)
    if (!request.tools.some((tool) => tool.name === name))
      throw invalidRequest(
        `${field}.allowedFunctionNames`,
        `${field}.allowedFunctionNames names '${name}', which is not among the declared functions.`,
      );
  let choice: ToolChoice = 'auto';
  if (mode === 'NONE') choice = 'none';
  else if (mode === 'ANY' && names.length === 1) choice = { name: names[0] };
  else if (mode === 'ANY') {
    choice = 'required';
    // The model must call one of these: the others are not offered.
    if (names.length > 0)
      setPath(
        request,
        'tools',
        request.tools.filter((tool) => names.includes(tool.name)),
        `${field}.allowedFunctionNames`,
      );
  } else if (mode === 'VALIDATED') for (const tool of request.tools) if (tool.parameters) tool.strict = true;
  setPath(request, 'toolChoice', choice, field);
}

function responseFormatOf(mimeType: string, field: string, body: Readonly<Record<string, unknown>>): ResponseFormat | undefined {
  if (mimeType === 'text/plain') return undefined;
  if (mimeType !== 'application/json')
    throw unsupportedParameter(field, `${field} '${mimeType}' is not supported by this proxy (text/plain, application/json).`);
  const googleSchema = body['generationConfig.responseSchema'];
  const jsonSchema = body['generationConfig.responseJsonSchema'];
  if (isRecord(googleSchema)) return { type: 'json_schema', schema: jsonSchemaOf(googleSchema) };
  if (isRecord(jsonSchema)) return { type: 'json_schema', schema: jsonSchema };
  if (isSet(jsonSchema))
    throw invalidRequest('generationConfig.responseJsonSchema', 'generationConfig.responseJsonSchema must be an object.');
  return { type: 'json_object' };
}

const hasJsonMimeType = (body: Readonly<Record<string, unknown>>) => body['generationConfig.responseMimeType'] === 'application/json';

/** Google's own rules across fields. */
export const geminiCrossFieldRules: readonly CrossFieldRule[] = [
  requires(
    'generationConfig.responseSchema',
    hasJsonMimeType,
    'generationConfig.responseSchema requires generationConfig.responseMimeType application/json.',
  ),
  requires(
    'generationConfig.responseJsonSchema',
    hasJsonMimeType,
    'generationConfig.responseJsonSchema requires generationConfig.responseMimeType application/json.',
  ),
  {
    fields: ['generationConfig.responseJsonSchema', 'generationConfig.responseSchema'],
    note: 'responseSchema and responseJsonSchema cannot both be set',
    apply: ({ body }) => {
      if (isSet(body['generationConfig.responseSchema']) && isSet(body['generationConfig.responseJsonSchema']))
        throw invalidRequest(
          'generationConfig.responseJsonSchema',
          'generationConfig.responseJsonSchema cannot be set together with responseSchema.',
        );
    },
  },
  requires(
    'generationConfig.logprobs',
    (body) => body['generationConfig.responseLogprobs'] === true,
    'generationConfig.logprobs requires generationConfig.responseLogprobs true.',
  ),
  {
    fields: ['generationConfig.thinkingConfig.thinkingLevel', 'generationConfig.thinkingConfig.thinkingBudget'],
    note: 'thinkingBudget and thinkingLevel cannot both be set',
    apply: ({ body }) => {
      if (isSet(body['generationConfig.thinkingConfig.thinkingBudget']) && isSet(body['generationConfig.thinkingConfig.thinkingLevel']))
        throw invalidRequest(
          'generationConfig.thinkingConfig.thinkingLevel',
          'generationConfig.thinkingConfig.thinkingLevel cannot be set together with thinkingBudget.',
        );
    },
  },
];
