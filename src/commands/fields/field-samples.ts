/**
 * One or more example values per wire field: the inputs the fate table runs
 * through the real code. They are inputs, not results: what a backend does
 * with each is found by the dry run. Keyed by the dialect's OpenAPI document
 * (chat, text, responses, messages) where the wire shape differs: the chat and
 * completions dialects share one table, the Responses dialect has its own
 * (its tools, tool choice, `prompt` and stream options are other shapes).
 * Typed by the tables' field unions, so a new field does not compile until it
 * has a sample; a guard test checks each sample against our OpenAPI documents.
 */
import type { ChatField } from '../../dialects/openai-chat/request-fields.js';
import type { CompletionsField } from '../../dialects/fireworks-completions/request-fields.js';
import type { ResponsesField } from '../../dialects/openai-responses/request-fields.js';
import type { MessagesField } from '../../dialects/anthropic-messages/request-fields.js';
import type { GeminiField } from '../../dialects/gemini/request-fields.js';
import type { DocumentName } from '../../validation/load-openapi-document.js';

export interface FieldSample {
  /** Names the case when a field has several samples. */
  label?: string;
  value: unknown;
  /** Sibling fields the value needs; they are in the baseline too, so only the field's own effect shows. */
  with?: Record<string, unknown>;
  /** Only for the dialect of this document (in FIELD_SAMPLES, which chat and completions share). */
  document?: DocumentName;
}

/** The smallest valid body of each dialect's document: the baseline every sample is compared with. */
export const BASE_BODIES: Readonly<Record<DocumentName, Readonly<Record<string, unknown>>>> = {
  chat: { model: 'model-a', messages: [{ role: 'user', content: 'Hi' }] },
  text: { model: 'model-a', prompt: 'Hi' },
  responses: { model: 'model-a', input: 'Hi' },
  messages: { model: 'model-a', max_tokens: 256, messages: [{ role: 'user', content: 'Hi' }] },
  // The model is the URL's; the offline commands read the body's own `model` field.
  gemini: { model: 'model-a', contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
};

const tool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const customTool = { type: 'custom', custom: { name: 'run_sql', description: 'Runs one SQL query.' } };
const customRegexTool = {
  type: 'custom',
  custom: { name: 'order_code', format: { type: 'grammar', grammar: { syntax: 'regex', definition: 'ORD-[0-9]{4}' } } },
};
const fn = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const one = (value: unknown, extra: Omit<FieldSample, 'value'> = {}): FieldSample[] => [{ value, ...extra }];

export const FIELD_SAMPLES: Readonly<Record<ChatField | CompletionsField, readonly FieldSample[]>> = {
  model: one('model-b'),
  user: one('user-1'),
  prompt_cache_key: one('session-1'),
  prompt_cache_isolation_key: one('tenant-1'),
  raw_output: one(true),
  perf_metrics_in_response: one(true),
  n: one(2),
  // Each backend kind's tiers: taken, named differently (OpenAI's `fast`), or refused.
  service_tier: [
    { label: 'priority', value: 'priority' },
    { label: 'flex', value: 'flex' },
    { label: 'fast', value: 'fast', document: 'chat' },
    { label: 'scale', value: 'scale', document: 'chat' },
  ],
  stop: one('\n'),
  max_tokens: one(16),
  max_completion_tokens: one(16),
  temperature: one(0.5),
  top_k: one(40),
  top_p: one(0.9),
  min_p: one(0.05),
  typical_p: one(0.9),
  frequency_penalty: one(0.5),
  presence_penalty: one(0.5),
  repetition_penalty: one(1.1),
  mirostat_target: one(5),
  mirostat_lr: one(0.1, { with: { mirostat_target: 5 } }),
  seed: one(7),
  logit_bias: one({ 42: -100 }),
  logprobs: [
    { label: 'true', value: true },
    { label: '3 (legacy)', value: 3, document: 'text' },
  ],
  top_logprobs: [
    { label: '3', value: 3, with: { logprobs: true } },
    { label: '20', value: 20, with: { logprobs: true } },
  ],
  sampling_mask: one('count'),
  echo: one(true),
  echo_last: one(2),
  ignore_eos: one(true),
  context_length_exceeded_behavior: [
    { label: 'error', value: 'error' },
    { label: 'truncate', value: 'truncate' },
  ],
  response_format: [
    { label: 'json_object', value: { type: 'json_object' } },
    { label: 'json_schema', value: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } } },
    { label: 'grammar', value: { type: 'grammar', grammar: 'root ::= "yes" | "no"' }, document: 'text' },
  ],
  speculation: [
    { label: 'text', value: 'Hello there' },
    { label: 'token ids', value: [9906, 1070] },
  ],
  prediction: one({ type: 'content', content: 'Hello there' }),
  metadata: one({ purpose: 'docs' }),
  // Every effort of OpenAI's newest ReasoningEffort: taken, mapped through the backend's ladder, or refused.
  reasoning_effort: [
    { label: 'high', value: 'high' },
    { label: 'none', value: 'none' },
    { label: 'minimal', value: 'minimal', document: 'chat' },
    { label: 'xhigh', value: 'xhigh' },
    { label: 'max', value: 'max' },
    { label: '2048 (budget)', value: 2048 },
  ],
  reasoning_history: [
    // An earlier turn with reasoning, so that keeping it shows.
    {
      value: 'preserved',
      document: 'chat',
      with: {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello', reasoning_content: 'Greet back.' },
          { role: 'user', content: 'Again' },
        ],
      },
    },
    { value: 'preserved', document: 'text' },
  ],
  thinking: [
    { label: 'enabled, budget 2048', value: { type: 'enabled', budget_tokens: 2048 } },
    { label: 'disabled', value: { type: 'disabled' } },
  ],
  return_token_ids: one(true),
  stream: one(true),
  stream_options: [
    // Each dialect's non-default include_usage.
    { label: 'include_usage', value: { include_usage: true }, with: { stream: true }, document: 'chat' },
    { label: 'include_usage', value: { include_usage: false }, with: { stream: true }, document: 'text' },
    { label: 'include_internal_content', value: { include_internal_content: true }, with: { stream: true } },
    { label: 'buffer_*', value: { buffer_tokens: 8, buffer_ms: 50 }, with: { stream: true } },
    { label: 'include_obfuscation', value: { include_obfuscation: true }, with: { stream: true }, document: 'chat' },
  ],
  // chat
  messages: one([
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ]),
  store: one(true),
  tools: [
    { label: 'function', value: [tool] },
    { label: 'custom (text)', value: [customTool] },
    { label: 'custom (regex)', value: [customRegexTool] },
  ],
  tool_choice: [
    { label: 'none', value: 'none', with: { tools: [tool] } },
    { label: 'required', value: 'required', with: { tools: [tool] } },
    { label: 'named', value: { type: 'function', function: { name: 'get_weather' } }, with: { tools: [tool] } },
    { label: 'named custom', value: { type: 'custom', custom: { name: 'run_sql' } }, with: { tools: [customTool] } },
  ],
  parallel_tool_calls: one(false, { with: { tools: [tool] } }),
  functions: one([fn]),
  function_call: one({ name: 'get_weather' }, { with: { functions: [fn] } }),
  modalities: [
    { label: "['text']", value: ['text'] },
    { label: "['text', 'audio']", value: ['text', 'audio'] },
  ],
  audio: one({ voice: 'alloy', format: 'wav' }),
  verbosity: one('low'),
  web_search_options: one({}),
  safety_identifier: one('user-1'),
  prompt_cache_retention: one('24h'),
  prompt_cache_options: one({ ttl: '30m' }),
  moderation: one({ model: 'omni-moderation-latest' }),
  prompt_truncate_len: one(1000),
  safe_tokenization: one(true),
  // completions
  prompt: [
    { label: 'text', value: 'Once upon a time' },
    { label: 'token ids', value: [7454, 2402, 257, 640] },
    { label: 'batch', value: ['Once upon a time', 'In a hole'] },
  ],
  images: one(['data:image/png;base64,iVBORw0KGgo=']),
};

const responsesTool = { type: 'function', name: 'get_weather', parameters: fn.parameters };
const responsesCustomTool = { type: 'custom', name: 'run_sql', description: 'Runs one SQL query.' };
const logprobsInclude = ['message.output_text.logprobs'];

/**
 * The Responses dialect's samples. Fields it shares by name with chat reuse
 * chat's where the wire value is the same; the others are in Responses shape.
 */
export const RESPONSES_SAMPLES: Readonly<Record<ResponsesField, readonly FieldSample[]>> = {
  model: FIELD_SAMPLES.model,
  input: [
    { label: 'text', value: 'Once upon a time' },
    {
      label: 'items',
      value: [
        { type: 'message', role: 'developer', content: 'Be brief.' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'Sunny' },
      ],
    },
  ],
  instructions: one('Be brief.'),
  max_output_tokens: one(16),
  temperature: FIELD_SAMPLES.temperature,
  top_p: FIELD_SAMPLES.top_p,
  top_logprobs: [
    { label: '3', value: 3, with: { include: logprobsInclude } },
    { label: '20', value: 20, with: { include: logprobsInclude } },
  ],
  include: [
    { label: 'message.output_text.logprobs', value: logprobsInclude },
    { label: 'reasoning.encrypted_content', value: ['reasoning.encrypted_content'] },
  ],
  tools: [
    { label: 'function', value: [responsesTool] },
    { label: 'custom (text)', value: [responsesCustomTool] },
    {
      label: 'custom (regex)',
      value: [{ type: 'custom', name: 'order_code', format: { type: 'grammar', syntax: 'regex', definition: 'ORD-[0-9]{4}' } }],
    },
    // A namespace: its tools flattened to `<namespace>__<name>`, calls restored.
    { label: 'namespace', value: [{ type: 'namespace', name: 'weather', description: 'Weather tools.', tools: [responsesTool] }] },
    // A hosted tool offered: dropped with a warning, on every backend (offered is not forced).
    { label: 'web_search (hosted)', value: [{ type: 'web_search' }] },
  ],
  tool_choice: [
    { label: 'none', value: 'none', with: { tools: [responsesTool] } },
    { label: 'required', value: 'required', with: { tools: [responsesTool] } },
    { label: 'named', value: { type: 'function', name: 'get_weather' }, with: { tools: [responsesTool] } },
    { label: 'named custom', value: { type: 'custom', name: 'run_sql' }, with: { tools: [responsesCustomTool] } },
    {
      label: 'allowed_tools',
      value: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'get_weather' }] },
      with: { tools: [responsesTool, { ...responsesTool, name: 'get_time' }] },
    },
    // Forcing a hosted tool: the dialect's 400, on every backend.
    { label: 'hosted (forced)', value: { type: 'web_search_preview' }, with: { tools: [responsesTool, { type: 'web_search_preview' }] } },
  ],
  parallel_tool_calls: one(false, { with: { tools: [responsesTool] } }),
  max_tool_calls: one(3),
  text: [
    { label: 'json_schema', value: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } } } },
    { label: 'json_object', value: { format: { type: 'json_object' } } },
    { label: 'verbosity', value: { verbosity: 'low' } },
  ],
  // Efforts through each backend's ladder, and a summary (the backend's reasoning text, whole).
  reasoning: [
    { label: 'effort high', value: { effort: 'high' } },
    { label: 'effort minimal', value: { effort: 'minimal' } },
    { label: 'effort xhigh', value: { effort: 'xhigh' } },
    { label: 'summary auto', value: { summary: 'auto' } },
  ],
  metadata: FIELD_SAMPLES.metadata,
  user: FIELD_SAMPLES.user,
  safety_identifier: FIELD_SAMPLES.safety_identifier,
  prompt_cache_key: FIELD_SAMPLES.prompt_cache_key,
  prompt_cache_retention: FIELD_SAMPLES.prompt_cache_retention,
  prompt_cache_options: FIELD_SAMPLES.prompt_cache_options,
  service_tier: [
    { label: 'priority', value: 'priority' },
    { label: 'flex', value: 'flex' },
    { label: 'fast', value: 'fast' },
    { label: 'scale', value: 'scale' },
  ],
  truncation: [
    { label: 'disabled', value: 'disabled' },
    { label: 'auto', value: 'auto' },
  ],
  stream: FIELD_SAMPLES.stream,
  stream_options: one({ include_obfuscation: true }, { with: { stream: true } }),
  store: [
    { label: 'true', value: true },
    { label: 'false', value: false },
  ],
  background: one(true),
  previous_response_id: one('resp_123'),
  conversation: one('conv_123'),
  prompt: one({ id: 'pmpt_123', variables: { city: 'Paris' } }),
  context_management: one([{ type: 'compaction', compact_threshold: 100000 }]),
  moderation: FIELD_SAMPLES.moderation,
  client_metadata: one({ thread_id: 'thread_1', turn_id: 'turn_1' }),
};

const messagesTool = { name: 'get_weather', description: 'The weather in a city.', input_schema: fn.parameters };
const ephemeral = { type: 'ephemeral' };

/** Anthropic's Messages API: its own shapes (blocks, tool_choice, thinking); sampling fields reuse chat's values. */
export const MESSAGES_SAMPLES: Readonly<Record<MessagesField, readonly FieldSample[]>> = {
  model: FIELD_SAMPLES.model,
  max_tokens: one(64),
  messages: [
    { label: 'text', value: [{ role: 'user', content: 'Once upon a time' }] },
    {
      label: 'tool loop',
      value: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' }] },
      ],
      with: { tools: [messagesTool] },
    },
    {
      label: 'thinking passed back',
      value: [
        { role: 'user', content: 'What is 2 + 2?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Two and two.', signature: 'sig-from-anthropic' },
            { type: 'text', text: '4' },
          ],
        },
        { role: 'user', content: 'And 3 + 3?' },
      ],
    },
    {
      label: 'failed tool',
      value: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'timeout', is_error: true }] },
      ],
      with: { tools: [messagesTool] },
    },
  ],
  system: [
    { label: 'string', value: 'Be brief.' },
    { label: 'blocks', value: [{ type: 'text', text: 'Be brief.', cache_control: ephemeral }] },
  ],
  cache_control: one(ephemeral),
  metadata: one({ user_id: 'user-1' }),
  stop_sequences: one(['\n\n']),
  stream: one(true),
  temperature: FIELD_SAMPLES.temperature,
  top_p: FIELD_SAMPLES.top_p,
  top_k: FIELD_SAMPLES.top_k,
  tools: one([messagesTool]),
  tool_choice: [
    { label: 'any', value: { type: 'any' }, with: { tools: [messagesTool] } },
    { label: 'tool', value: { type: 'tool', name: 'get_weather' }, with: { tools: [messagesTool] } },
    { label: 'no parallel calls', value: { type: 'auto', disable_parallel_tool_use: true }, with: { tools: [messagesTool] } },
  ],
  thinking: [
    { label: 'budget', value: { type: 'enabled', budget_tokens: 2048 }, with: { max_tokens: 4096 } },
    { label: 'adaptive', value: { type: 'adaptive' } },
    { label: 'disabled', value: { type: 'disabled' } },
  ],
  output_config: [
    { label: 'effort', value: { effort: 'high' } },
    { label: 'format', value: { format: { type: 'json_schema', schema: { type: 'object', properties: { answer: { type: 'string' } } } } } },
  ],
  output_format: one({ type: 'json_schema', schema: { type: 'object', properties: { answer: { type: 'string' } } } }),
  service_tier: [
    { label: 'auto', value: 'auto' },
    { label: 'standard_only', value: 'standard_only' },
  ],
  context_management: one({ edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] }),
  container: one('container_1'),
  inference_geo: one('us'),
  mcp_servers: one([{ type: 'url', url: 'https://mcp.example.com/sse', name: 'example' }]),
  speed: one('fast'),
  diagnostics: one({ previous_message_id: 'msg_1' }),
};

const geminiTools = [{ functionDeclarations: [fn] }];

/** Gemini's option objects are opened into dotted fields (`generationConfig.temperature`), as its table has them. */
export const GEMINI_SAMPLES: Readonly<Record<GeminiField, readonly FieldSample[]>> = {
  model: one('model-b'),
  contents: [
    { label: 'text', value: [{ role: 'user', parts: [{ text: 'Hello' }] }] },
    {
      label: 'tool loop',
      value: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'get_weather', response: { temperature: 21 } } }] },
      ],
    },
  ],
  systemInstruction: one({ role: 'user', parts: [{ text: 'Be brief.' }] }),
  tools: [
    { label: 'functionDeclarations', value: geminiTools },
    { label: 'googleSearch', value: [{ googleSearch: {} }] },
  ],
  'toolConfig.functionCallingConfig': [
    { label: 'ANY', value: { mode: 'ANY' }, with: { tools: geminiTools } },
    { label: 'NONE', value: { mode: 'NONE' }, with: { tools: geminiTools } },
  ],
  'toolConfig.retrievalConfig': one({ latLng: { latitude: 48.85, longitude: 2.35 } }),
  'toolConfig.includeServerSideToolInvocations': one(true),
  'generationConfig.temperature': one(0.5),
  'generationConfig.topP': one(0.9),
  'generationConfig.topK': one(40),
  'generationConfig.candidateCount': one(2),
  'generationConfig.maxOutputTokens': one(64),
  'generationConfig.stopSequences': one(['END']),
  'generationConfig.presencePenalty': one(0.5),
  'generationConfig.frequencyPenalty': one(0.5),
  'generationConfig.seed': one(7),
  'generationConfig.responseMimeType': one('application/json'),
  'generationConfig.responseSchema': one(
    { type: 'OBJECT', properties: { city: { type: 'STRING' } } },
    { with: { 'generationConfig.responseMimeType': 'application/json' } },
  ),
  'generationConfig.responseJsonSchema': one(
    { type: 'object', properties: { city: { type: 'string' } } },
    { with: { 'generationConfig.responseMimeType': 'application/json' } },
  ),
  'generationConfig.responseLogprobs': one(true),
  'generationConfig.logprobs': one(3, { with: { 'generationConfig.responseLogprobs': true } }),
  'generationConfig.responseModalities': one(['TEXT']),
  'generationConfig.mediaResolution': one('MEDIA_RESOLUTION_LOW'),
  'generationConfig.speechConfig': one({ voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } }),
  'generationConfig.enableEnhancedCivicAnswers': one(true),
  'generationConfig.thinkingConfig.includeThoughts': one(true),
  'generationConfig.thinkingConfig.thinkingBudget': one(2048),
  'generationConfig.thinkingConfig.thinkingLevel': one('LOW'),
  safetySettings: one([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]),
  cachedContent: one('cachedContents/abc'),
  labels: one({ team: 'search' }),
};

const SAMPLES_BY_DOCUMENT: Readonly<Record<DocumentName, Readonly<Record<string, readonly FieldSample[] | undefined>>>> = {
  chat: FIELD_SAMPLES,
  text: FIELD_SAMPLES,
  responses: RESPONSES_SAMPLES,
  messages: MESSAGES_SAMPLES,
  gemini: GEMINI_SAMPLES,
};

/** The samples that apply to the dialect of one document. */
export function samplesFor(field: string, document: DocumentName): FieldSample[] {
  const all = SAMPLES_BY_DOCUMENT[document][field] ?? [];
  return all.filter((sample) => sample.document === undefined || sample.document === document);
}
