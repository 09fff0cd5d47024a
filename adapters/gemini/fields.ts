/**
 * `kind: gemini`: what Google's Gemini API (`POST /v1beta/models/{model}:generateContent`)
 * does with every neutral field. It serves chat only; completions callers reach it
 * through the plan's rendering of a prompt as one user message.
 *
 * Choices made here:
 *  - sampling, limits, `n` (`candidateCount`), logprobs and the output format go in
 *    `generationConfig`, each under Gemini's name;
 *  - reasoning: with `thinkingLevels`, an effort is `thinkingConfig.thinkingLevel`
 *    and a budget is refused here so that the plan sends the effort the ladder gives
 *    it; without it, a budget is `thinkingBudget`, `none` is a budget of 0, `adaptive`
 *    is -1 (Gemini's dynamic thinking), and a graded effort reaches it as the
 *    ladder's budget. `includeThoughts` is set whenever thinking is on, so the
 *    caller gets the reasoning back;
 *  - JSON output is `responseMimeType: application/json`, with the schema as `responseJsonSchema`.
 */
import {
  convert,
  emulate,
  native,
  unsupported,
  type BackendTable,
  type FieldHandling,
  type FieldSupport,
  type WireBody,
} from '../../src/backend/field-support.js';
import type { ConversationWire } from '../../src/model/wire-form.js';
import { NEUTRAL_FIELDS, type NeutralField } from '../../src/model/neutral-fields.js';
import type { ResponseFormat } from '../../src/model/request.js';
import type { ToolSchemaField } from './settings.js';
import { parallelToolCallsField, toolChoiceField, toolsField } from './to-wire-tools.js';

export const LABEL = { chat: 'the Gemini API', text: 'the Gemini API' } as const;

/** The turns under `contents`, the system turn under `systemInstruction`. */
const CONVERSATION: ConversationWire = { form: 'gemini', turns: 'contents', system: 'systemInstruction' };

export interface GeminiTableOptions {
  toolSchemas: ToolSchemaField;
  thinkingLevels?: boolean;
}

/** Budget thinking (Gemini 2.5): `none` is a budget of 0, `adaptive` is dynamic; graded efforts reach it as budgets. */
export const BUDGET_EFFORTS: readonly string[] = ['none', 'adaptive'];
/** Gemini 3's thinking levels; `none` is not one (Gemini 3 cannot stop thinking). */
export const LEVEL_EFFORTS: readonly string[] = ['minimal', 'low', 'medium', 'high'];

/** `generationConfig`, shared by most fields. */
export function generationConfig(body: WireBody): WireBody {
  const existing = body.generationConfig;
  if (existing && typeof existing === 'object' && !Array.isArray(existing)) return existing as WireBody;
  const config: WireBody = {};
  body.generationConfig = config;
  return config;
}

/** The neutral field's value, unchanged, as `generationConfig.<key>`. */
function inConfig(key: string, field: NeutralField): FieldHandling {
  return convert(`generationConfig.${key}`, (body, request) => {
    generationConfig(body)[key] = NEUTRAL_FIELDS[field].value(request);
  });
}

const logprobs = convert('generationConfig.responseLogprobs + logprobs (the top count)', (body, request) => {
  if (!request.logprobs) return;
  const config = generationConfig(body);
  config.responseLogprobs = true;
  if (request.logprobs.top > 0) config.logprobs = request.logprobs.top;
});

const jsonOutput = convert('generationConfig.responseMimeType application/json + responseJsonSchema', (body, request) => {
  const format = request.responseFormat as Extract<ResponseFormat, { type: 'json_object' | 'json_schema' }>;
  const config = generationConfig(body);
  config.responseMimeType = 'application/json';
  if (format.schema) config.responseJsonSchema = format.schema;
});

function thinkingField({ thinkingLevels }: GeminiTableOptions): FieldHandling {
  const note = thinkingLevels
    ? 'generationConfig.thinkingConfig {thinkingLevel, includeThoughts}'
    : 'generationConfig.thinkingConfig {thinkingBudget, includeThoughts}: none 0, adaptive -1';
  return convert(note, (body, request) => {
    const asked = request.reasoning;
    if (!asked) return;
    const { effort, budgetTokens } = asked;
    let thinking: WireBody | undefined;
    if (thinkingLevels) {
      // A budget alone was the plan's to turn into an effort (this table refuses budgets).
      if (effort !== undefined) thinking = { thinkingLevel: effort };
    } else if (budgetTokens !== undefined) thinking = { thinkingBudget: budgetTokens };
    else if (effort === 'none') thinking = { thinkingBudget: 0 };
    else if (effort === 'adaptive') thinking = { thinkingBudget: -1 };
    if (!thinking) return;
    if (thinking.thinkingBudget !== 0) thinking.includeThoughts = true;
    generationConfig(body).thinkingConfig = thinking;
  });
}

const customAsFunction = emulate(
  'each custom tool goes as a function with one string parameter, `input`, and its calls come back unwrapped; a grammar on the input is refused (a function argument takes none)',
);

/** The table for a backend with these settings: the tool and reasoning rows differ with them. */
export function geminiTable(options: GeminiTableOptions): BackendTable {
  const thinking = thinkingField(options);
  const fields: FieldSupport = {
    'sampling.temperature': inConfig('temperature', 'sampling.temperature'),
    'sampling.topP': inConfig('topP', 'sampling.topP'),
    'sampling.topK': inConfig('topK', 'sampling.topK'),
    'sampling.minP': unsupported('Gemini has no min-p sampling'),
    'sampling.typicalP': unsupported('Gemini has no typical-p sampling'),
    'sampling.presencePenalty': inConfig('presencePenalty', 'sampling.presencePenalty'),
    'sampling.frequencyPenalty': inConfig('frequencyPenalty', 'sampling.frequencyPenalty'),
    'sampling.repetitionPenalty': unsupported('Gemini has no repetition penalty (it has presence and frequency penalties)'),
    'sampling.mirostat': unsupported('Gemini has no Mirostat sampler'),
    'sampling.seed': inConfig('seed', 'sampling.seed'),
    'sampling.logitBias': unsupported('Gemini has no logit bias'),
    choices: inConfig('candidateCount', 'choices'),
    'limits.stop': inConfig('stopSequences', 'limits.stop'),
    'limits.maxTokens': inConfig('maxOutputTokens', 'limits.maxTokens'),
    'limits.ignoreEos': unsupported('Gemini always stops at the end of its turn'),
    'limits.onContextOverflow': native('Gemini answers 400 when the prompt does not fit'),
    'prompt:tokenIds': unsupported('Gemini takes text, not token ids'),
    'prompt:batch': emulate('one request per prompt'),
    images: unsupported("Fireworks' top-level images; Gemini takes images as content parts"),
    logprobs,
    echo: unsupported('Gemini does not echo the prompt'),
    'echo.lastTokens': unsupported('Gemini does not echo the prompt'),
    tools: toolsField(options.toolSchemas),
    'tools:custom': customAsFunction,
    toolChoice: toolChoiceField,
    parallelToolCalls: parallelToolCallsField,
    'responseFormat:text': native('plain text is the default'),
    'responseFormat:json_object': jsonOutput,
    'responseFormat:json_schema': jsonOutput,
    'responseFormat:grammar': unsupported('Gemini takes no grammar: use a JSON schema'),
    'reasoning.effort': thinking,
    'reasoning.budgetTokens': options.thinkingLevels
      ? unsupported('its models think by level (thinkingLevels): a budget is sent as the effort the ladder gives it')
      : thinking,
    'reasoning.history': unsupported('Gemini keeps earlier reasoning through its thought signatures, not by a setting'),
    'reasoning.budgetEndText': unsupported('Gemini has no budget end text'),
    prediction: unsupported('Gemini has no predicted outputs'),
    returnTokenIds: unsupported('Gemini returns no token ids'),
    'stream.tokenIds': unsupported('Gemini returns no token ids'),
    rawOutput: unsupported('Gemini returns no raw output'),
    perfMetricsInBody: emulate('the proxy reports its own timings (pipeline/answer/request-meter.ts)'),
    samplingMask: unsupported('Gemini has no sampling mask'),
    promptCacheIsolationKey: unsupported('Gemini has no prompt cache isolation key'),
    metadata: unsupported('Gemini takes no request metadata'),
    store: unsupported('Gemini keeps no answers to retrieve later'),
    serviceTier: unsupported('Gemini takes no service tier per request'),
    user: unsupported('Gemini takes no end-user id'),
    promptCacheKey: unsupported('Gemini caches implicitly (or through cachedContent), not by key'),
    cacheControl: unsupported('Gemini caches implicitly (or through cachedContent), not at breakpoints'),
    contextManagement: unsupported('Gemini does not trim the conversation itself'),
    toolError: native('a failed tool result goes as functionResponse.response {error}'),
  };
  return { fields, relayed: { chat: new Set(), text: new Set() }, label: LABEL, conversation: { chat: CONVERSATION, text: CONVERSATION } };
}
