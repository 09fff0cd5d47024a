/**
 * Chat on a completions-only backend: messages (and tools) are rendered into a
 * prompt with the backend's chat template; the generated text is split into
 * reasoning and content at think tags, and tool calls are parsed out of it.
 */
import type { AdapterContext } from '../../../adapters/adapter.js';
import type { NeutralRequest, ToolCall } from '../../model/request.js';
import type { ResultChoice } from '../../model/result.js';
import type { StreamEvent } from '../../model/stream-event.js';
import { applyReasoningHistory } from './apply-reasoning-history.js';
import type { Engine } from './engine.js';
import { parseToolCalls, type ToolCallFormat } from './parse-tool-calls.js';
import { renderChatTemplate } from './render-chat-template.js';
import { defaultThinkTags, ReasoningSplitter, splitReasoning, type ThinkTags } from './split-reasoning.js';

export interface ChatOverTextOptions {
  /** Jinja source or `chatml`. */
  template?: string;
  bosToken?: string;
  eosToken?: string;
  thinkTags?: ThinkTags;
  toolCallFormat?: ToolCallFormat;
}

/** Turn markers of the built-in ChatML template: generation stops at the end of the assistant turn. */
const chatmlStop = '<|im_end|>';

export function chatOverText(inner: Engine, options: ChatOverTextOptions = {}): Engine {
  const tags = options.thinkTags ?? defaultThinkTags;
  return {
    async complete(request, context) {
      const result = await inner.complete(toTextRequest(request, options), context);
      return { ...result, choices: result.choices.map((choice) => toChatChoice(choice, request, tags, options.toolCallFormat)) };
    },
    stream(request, context) {
      return streamChat(inner, request, context, tags, options);
    },
  };
}

export function toTextRequest(request: NeutralRequest, options: ChatOverTextOptions): NeutralRequest {
  const usesChatml = !options.template || options.template === 'chatml';
  const tools = request.toolChoice === 'none' ? undefined : request.tools;
  // Templates commonly drop earlier turns' reasoning, so `interleaved` is the default here.
  const messages = applyReasoningHistory(request.messages ?? [], request.reasoning?.history ?? 'interleaved');
  const { template, bosToken, eosToken } = options;
  const prompt = renderChatTemplate(messages, {
    ...(template ? { template } : {}),
    ...(bosToken ? { bosToken } : {}),
    ...(eosToken ? { eosToken } : {}),
    ...(tools ? { tools } : {}),
    variables: reasoningVariables(request),
  });
  const { messages: _messages, tools: _tools, toolChoice: _toolChoice, parallelToolCalls: _parallel, ...rest } = request;
  // History was applied above, in the prompt; nothing is left for the backend to do with it.
  const { history: _history, ...reasoning } = request.reasoning ?? {};
  return {
    ...rest,
    ...(request.reasoning ? { reasoning } : {}),
    endpoint: 'text',
    prompt,
    limits: { ...request.limits, stop: usesChatml && !request.limits.stop.includes(chatmlStop) ? [...request.limits.stop, chatmlStop] : request.limits.stop },
  };
}

/** What reasoning-aware templates read: Qwen3's `enable_thinking`, GPT-OSS's `reasoning_effort`. */
function reasoningVariables(request: NeutralRequest): Record<string, unknown> {
  const effort = request.reasoning?.effort;
  if (effort === undefined) return {};
  return { enable_thinking: effort !== 'none', reasoning_effort: effort };
}

function toChatChoice(choice: ResultChoice, request: NeutralRequest, tags: ThinkTags, format?: ToolCallFormat): ResultChoice {
  const split = splitReasoning(choice.text, tags);
  const out: ResultChoice = { ...choice, text: split.text };
  if (split.reasoning) out.reasoning = (choice.reasoning ?? '') + split.reasoning;
  if (request.tools?.length && request.toolChoice !== 'none') {
    const parsed = parseToolCalls(split.text, format);
    if (parsed.calls.length > 0) {
      out.text = parsed.text;
      out.toolCalls = allowedCalls(parsed.calls, request);
      out.finishReason = 'tool_calls';
    }
  }
  return out;
}

async function* streamChat(inner: Engine, request: NeutralRequest, context: AdapterContext, tags: ThinkTags, options: ChatOverTextOptions): AsyncGenerator<StreamEvent> {
  const splitters = new Map<number, ReasoningSplitter>();
  const splitterFor = (choice: number) => {
    let splitter = splitters.get(choice);
    if (!splitter) splitters.set(choice, (splitter = new ReasoningSplitter(tags)));
    return splitter;
  };
  // With tools, content is held per choice until the end, where tool calls are parsed out of it.
  const withTools = Boolean(request.tools?.length) && request.toolChoice !== 'none';
  const heldText = new Map<number, string>();

  for await (const event of inner.stream(toTextRequest(request, options), context)) {
    if (event.type === 'text-delta') {
      const pieces = splitterFor(event.choice).push(event.delta);
      yield* piecesToEvents(event, pieces, withTools, heldText);
    } else if (event.type === 'choice-end') {
      const pieces = splitterFor(event.choice).finish();
      yield* piecesToEvents({ type: 'text-delta', choice: event.choice, delta: '' }, pieces, withTools, heldText);
      let finishReason = event.finishReason;
      if (withTools) {
        const parsed = parseToolCalls(heldText.get(event.choice) ?? '', options.toolCallFormat);
        if (parsed.text) yield { type: 'text-delta', choice: event.choice, delta: parsed.text };
        for (const [index, call] of allowedCalls(parsed.calls, request).entries()) {
          yield { type: 'tool-call-delta', choice: event.choice, index, id: call.id, name: call.name, argumentsDelta: call.arguments };
        }
        if (parsed.calls.length > 0) finishReason = 'tool_calls';
      }
      yield { ...event, finishReason };
    } else {
      yield event;
    }
  }
}

/** `parallel_tool_calls: false` asks for at most one call: the first one the model made. */
function allowedCalls(calls: ToolCall[], request: NeutralRequest): ToolCall[] {
  return request.parallelToolCalls === false ? calls.slice(0, 1) : calls;
}

function* piecesToEvents(
  source: StreamEvent & { type: 'text-delta' },
  pieces: ReturnType<ReasoningSplitter['push']>,
  holdText: boolean,
  heldText: Map<number, string>,
): Generator<StreamEvent> {
  let carried = false;
  for (const piece of pieces) {
    // Token ids and logprobs ride on the first piece of the chunk they came with.
    const extras = carried ? {} : { ...(source.tokenIds ? { tokenIds: source.tokenIds } : {}), ...(source.logprobs ? { logprobs: source.logprobs } : {}) };
    carried = true;
    if (piece.kind === 'reasoning') {
      yield { type: 'reasoning-delta', choice: source.choice, delta: piece.text, ...extras };
    } else if (holdText) {
      heldText.set(source.choice, (heldText.get(source.choice) ?? '') + piece.text);
    } else {
      yield { type: 'text-delta', choice: source.choice, delta: piece.text, ...extras };
    }
  }
  if (!carried && (source.tokenIds || source.logprobs) && !holdText) {
    // A chunk wholly held back (part of a tag) still carries its token data.
    yield { type: 'text-delta', choice: source.choice, delta: '', ...(source.tokenIds ? { tokenIds: source.tokenIds } : {}), ...(source.logprobs ? { logprobs: source.logprobs } : {}) };
  }
}
