/**
 * A strict stand-in for an OpenAI-compatible server (chat and completions) on
 * 127.0.0.1, over mock-upstream.ts: it refuses, as OpenAI does, a top-level
 * key its request schema does not have (OpenAI's newest CreateChatCompletionRequest
 * and CreateCompletionRequest), a tool name outside `^[a-zA-Z0-9_-]{1,64}$`,
 * `tool_choice` or `parallel_tool_calls` without tools, and a tool message
 * answering no call of the conversation. Each refusal is a 400 in OpenAI's
 * error shape, kept in `refusals`; anything else is answered by the script.
 */
import { startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from './mock-upstream.js';

const CHAT_KEYS = new Set([
  'metadata',
  'top_logprobs',
  'temperature',
  'top_p',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'prompt_cache_options',
  'messages',
  'model',
  'service_tier',
  'modalities',
  'verbosity',
  'reasoning_effort',
  'max_completion_tokens',
  'frequency_penalty',
  'presence_penalty',
  'web_search_options',
  'response_format',
  'audio',
  'store',
  'moderation',
  'stream',
  'stop',
  'logit_bias',
  'logprobs',
  'max_tokens',
  'n',
  'prediction',
  'seed',
  'stream_options',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'function_call',
  'functions',
]);

const COMPLETIONS_KEYS = new Set([
  'model',
  'prompt',
  'best_of',
  'echo',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'max_tokens',
  'n',
  'presence_penalty',
  'seed',
  'stop',
  'stream',
  'stream_options',
  'suffix',
  'temperature',
  'top_p',
  'user',
]);

/** The tool names OpenAI (and Anthropic) accept. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Wire = Record<string, unknown>;

export interface StrictOpenAI extends MockUpstream {
  /** The requests refused, each with the message it got. */
  refusals: { request: RecordedRequest; message: string }[];
}

/** What OpenAI would refuse in this request; undefined when it is well formed. */
export function openaiRefusal(request: RecordedRequest): string | undefined {
  const body = request.body as Wire;
  if (!body || typeof body !== 'object') return 'We could not parse the JSON body of your request.';
  const chat = request.path.endsWith('/chat/completions');
  if (!chat && !request.path.endsWith('/completions')) return `Unknown path ${request.path}`;
  for (const key of Object.keys(body))
    if (!(chat ? CHAT_KEYS : COMPLETIONS_KEYS).has(key)) return `Unrecognized request argument supplied: ${key}`;
  if (!chat) return typeof body.prompt === 'string' || Array.isArray(body.prompt) ? undefined : "'prompt' is a required property";
  const tools = Array.isArray(body.tools) ? (body.tools as Wire[]) : [];
  for (const [i, tool] of tools.entries()) {
    const name = (tool.function as Wire | undefined)?.name;
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      return `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`;
  }
  if (tools.length === 0 && body.tool_choice !== undefined)
    return "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.";
  if (tools.length === 0 && body.parallel_tool_calls !== undefined)
    return "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.";
  const calls = new Set<string>();
  for (const [i, message] of ((body.messages as Wire[] | undefined) ?? []).entries()) {
    for (const call of (message.tool_calls as Wire[] | undefined) ?? []) calls.add(String(call.id));
    if (message.role === 'tool' && !calls.has(String(message.tool_call_id)))
      return `Invalid parameter: messages[${i}] with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
  }
  return undefined;
}

/** Starts the strict server; `script` answers what it does not refuse. */
export async function startStrictOpenAI(script: (request: RecordedRequest, index: number) => MockReply): Promise<StrictOpenAI> {
  const refusals: StrictOpenAI['refusals'] = [];
  const upstream = await startMockUpstream((request, index) => {
    const message = openaiRefusal(request);
    if (message === undefined) return script(request, index);
    refusals.push({ request, message });
    return { status: 400, json: { error: { message, type: 'invalid_request_error', param: null, code: null } } };
  });
  return Object.assign(upstream, { refusals });
}

/** A chat completion chunk's SSE frame. */
export function chatChunk(delta: Wire | null, finish: string | null = null, usage?: Wire): string {
  const chunk = {
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'mock',
    choices: delta ? [{ index: 0, delta, finish_reason: finish }] : [],
  };
  return `data: ${JSON.stringify(usage ? { ...chunk, usage } : chunk)}\n\n`;
}

/** A text completion chunk's SSE frame. */
export function textChunk(text: string, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'cmpl-mock', object: 'text_completion', created: 1, model: 'mock', choices: [{ index: 0, text, logprobs: null, finish_reason: finish }] })}\n\n`;
}
