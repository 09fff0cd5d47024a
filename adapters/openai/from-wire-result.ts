/**
 * An OpenAI-compatible response body -> NeutralResult. One reader for both
 * `chat.completion` (a choice has `message`) and `text_completion` (a choice
 * has `text`), tolerant of the servers that speak it: OpenAI, Fireworks, vLLM,
 * llama.cpp (`reasoning` instead of `reasoning_content`, chat-shaped logprobs
 * on completions, `timings`). Backend extensions come in through `extras`.
 */
import { upstreamBadResponse } from '../../src/errors/catalogue.js';
import type { ProxyError } from '../../src/errors/proxy-error.js';
import type { NeutralRequest, ToolCall } from '../../src/model/request.js';
import type { NeutralResult, ResultChoice } from '../../src/model/result.js';
import { isRecord } from '../../src/model/is-record.js';
import { mapErrorFrame } from '../map-upstream-error.js';
import { readFinishReason } from './read-finish-reason.js';
import { readWireLogprobs } from './read-wire-logprobs.js';
import { readWireUsage } from './read-wire-usage.js';
import { EchoSplitter, echoPlanOf } from './split-echo.js';
import { openAIExtras, type WireExtras } from './wire-extras.js';

/**
 * @example
 * fromWireResult({id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm',
 *   choices: [{index: 0, message: {role: 'assistant', content: 'Hi'}, finish_reason: 'stop'}]}, request)
 * // {id: 'chatcmpl-1', model: 'm', created: 1, choices: [{index: 0, text: 'Hi', finishReason: 'stop'}]}
 */
export function fromWireResult(body: unknown, request: NeutralRequest, extras: WireExtras = openAIExtras): NeutralResult {
  if (isRecord(body) && body.error !== undefined && body.error !== null && !Array.isArray(body.choices)) throw mapErrorFrame(body);
  if (!isRecord(body) || !Array.isArray(body.choices)) throw unexpectedBody();
  const result: NeutralResult = {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : request.model,
    created: typeof body.created === 'number' ? body.created : Math.floor(Date.now() / 1000),
    choices: body.choices.filter(isRecord).map((choice, position) => readChoice(choice, position, body, request, extras)),
  };
  const usage = readWireUsage(body.usage);
  if (usage) result.usage = usage;
  const perf = extras.readPerf?.(body);
  if (perf) result.perf = perf;
  if (typeof body.system_fingerprint === 'string') result.systemFingerprint = body.system_fingerprint;
  if (typeof body.service_tier === 'string') result.serviceTier = body.service_tier;
  return result;
}

function readChoice(
  wire: Record<string, unknown>,
  position: number,
  body: Record<string, unknown>,
  request: NeutralRequest,
  extras: WireExtras,
): ResultChoice {
  const message = isRecord(wire.message) ? wire.message : undefined;
  const choice: ResultChoice = {
    index: typeof wire.index === 'number' ? wire.index : position,
    text: message ? contentText(message.content) : typeof wire.text === 'string' ? wire.text : '',
    finishReason: readFinishReason(wire.finish_reason),
  };
  if (message) readMessage(message, choice);
  const logprobs = readWireLogprobs(wire.logprobs);
  if (logprobs) choice.logprobs = logprobs;
  Object.assign(choice, extras.readChoice?.(wire, body));

  const plan = echoPlanOf(request, choice.index);
  if (plan) {
    const splitter = new EchoSplitter(plan);
    const { echo, rest } = splitter.take(choice.text, choice.logprobs);
    choice.text = rest?.text ?? '';
    if (choice.logprobs) choice.logprobs = rest?.logprobs ?? [];
    if (echo?.logprobs) choice.promptLogprobs = echo.logprobs;
    // The echo could not be told apart: the whole text is the backend's, with nothing prepended.
    if (splitter.unsplit) choice.echoText = '';
  }
  // Logprobs the caller did not ask for were ours (asked to find an echo's end).
  if (!request.logprobs) delete choice.logprobs;
  return choice;
}

function readMessage(message: Record<string, unknown>, choice: ResultChoice): void {
  // vLLM and llama.cpp name it `reasoning`; most others `reasoning_content`.
  const reasoning = [message.reasoning_content, message.reasoning].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  if (reasoning !== undefined) choice.reasoning = reasoning;
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord).map(readToolCall) : [];
  // The deprecated `function_call` is one call without an id.
  if (isRecord(message.function_call)) toolCalls.push(readToolCall({ function: message.function_call }));
  if (toolCalls.length > 0) choice.toolCalls = toolCalls;
  if ('refusal' in message) choice.refusal = typeof message.refusal === 'string' ? message.refusal : null;
  if (Array.isArray(message.annotations) && message.annotations.length > 0) choice.annotations = message.annotations;
}

function readToolCall(wire: Record<string, unknown>): ToolCall {
  // A custom tool's call (OpenAI): its input is free text.
  if (wire.type === 'custom' && isRecord(wire.custom)) {
    const { name, input } = wire.custom;
    return {
      id: typeof wire.id === 'string' ? wire.id : '',
      name: typeof name === 'string' ? name : '',
      arguments: typeof input === 'string' ? input : '',
      custom: true,
    };
  }
  const fn = isRecord(wire.function) ? wire.function : {};
  return {
    id: typeof wire.id === 'string' ? wire.id : '',
    name: typeof fn.name === 'string' ? fn.name : '',
    arguments: argumentsText(fn.arguments),
  };
}

/** Tool call `arguments` as JSON text: Fireworks may send an object. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** `content` is a string, null, or (some servers) a list of text parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function unexpectedBody(): ProxyError {
  return upstreamBadResponse('The upstream backend returned a body that is not a completion (no `choices` list).');
}
