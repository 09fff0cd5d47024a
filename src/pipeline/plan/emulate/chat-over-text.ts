/**
 * Chat on a completions-only backend: messages (and tools) are rendered into a
 * prompt with the backend's chat template; the generated text is split into
 * reasoning and content at think tags, and tool calls are parsed out of it.
 */
import type { AdapterContext } from '../../../backend/adapter.js';
import type { NeutralRequest, ToolCall } from '../../../model/request.js';
import type { ResultChoice } from '../../../model/result.js';
import type { StreamBatches, StreamEvent } from '../../../model/stream-event.js';
import { mapEvents } from '../../../streaming/stream-batches.js';
import { applyReasoningHistory } from './apply-reasoning-history.js';
import type { Engine } from './engine.js';
import { parseToolCalls, type ToolCallFormat } from './parse-tool-calls.js';
import { renderChatTemplate } from '../../../model/render-chat-template.js';
import { defaultThinkTags, ReasoningSplitter, splitReasoning, type SplitPiece, type ThinkTags } from './split-reasoning.js';
import { ToolCallStream, type ToolStreamPiece } from './stream-tool-calls.js';

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

/** The stops the template's end of turn adds to the caller's, so generation ends with the assistant's turn (ChatML's `<|im_end|>`). */
export function endOfTurnStops(request: NeutralRequest, options: ChatOverTextOptions): string[] {
  const usesChatml = !options.template || options.template === 'chatml';
  return usesChatml && !request.limits.stop.includes(chatmlStop) ? [chatmlStop] : [];
}

export function toTextRequest(request: NeutralRequest, options: ChatOverTextOptions): NeutralRequest {
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
    limits: {
      ...request.limits,
      stop: [...request.limits.stop, ...endOfTurnStops(request, options)],
    },
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

/** Per-choice parsing state of a streamed chat over completions. */
interface ChoiceParse {
  reasoning: ReasoningSplitter;
  /** Hermes calls, found as each completes. */
  tools?: ToolCallStream;
  /** Other formats (a whole-reply JSON call) can only be parsed at the end: the text is held. */
  held?: string;
  calls: number;
}

function streamChat(
  inner: Engine,
  request: NeutralRequest,
  context: AdapterContext,
  tags: ThinkTags,
  options: ChatOverTextOptions,
): StreamBatches {
  const withTools = Boolean(request.tools?.length) && request.toolChoice !== 'none';
  const incremental = (options.toolCallFormat ?? 'hermes') === 'hermes';
  const choices = new Map<number, ChoiceParse>();
  const parseOf = (choice: number): ChoiceParse => {
    let parse = choices.get(choice);
    if (!parse) {
      parse = {
        reasoning: new ReasoningSplitter(tags),
        calls: 0,
        ...(withTools ? (incremental ? { tools: new ToolCallStream() } : { held: '' }) : {}),
      };
      choices.set(choice, parse);
    }
    return parse;
  };

  return mapEvents(
    () => inner.stream(toTextRequest(request, options), context),
    (event, out) => {
      if (event.type === 'text-delta') {
        const parse = parseOf(event.choice);
        // Plain text with nothing to parse leaves as it came (chatEvents would copy it: this runs for most events).
        if (isPlain(event) && !parse.tools && parse.held === undefined && parse.reasoning.passesThrough(event.delta)) out.push(event);
        else chatEvents(event, parse.reasoning.push(event.delta), parse, request, out);
      } else if (event.type === 'choice-end') {
        const parse = parseOf(event.choice);
        const source = { type: 'text-delta', choice: event.choice, delta: '' } as const;
        chatEvents(source, parse.reasoning.finish(), parse, request, out);
        if (parse.tools) toolEvents(source, parse.tools.finish(), parse, request, out);
        if (parse.held !== undefined) {
          const parsed = parseToolCalls(parse.held, options.toolCallFormat);
          if (parsed.text) out.push({ type: 'text-delta', choice: event.choice, delta: parsed.text });
          toolEvents(
            source,
            parsed.calls.map((call) => ({ kind: 'call', call })),
            parse,
            request,
            out,
          );
        }
        out.push({ ...event, finishReason: parse.calls > 0 ? 'tool_calls' : event.finishReason });
      } else {
        out.push(event);
      }
    },
  );
}

type TextDelta = StreamEvent & { type: 'text-delta' };

/** A text delta with no more than chatEvents keeps of one (token ids, logprobs): passing it on equals copying it. */
function isPlain(event: TextDelta): boolean {
  return event.echo === undefined && event.promptTokenIds === undefined && event.annotations === undefined;
}

/** Reasoning and text pieces of one upstream chunk as chat events; token data rides on the first event. */
function chatEvents(source: TextDelta, pieces: SplitPiece[], parse: ChoiceParse, request: NeutralRequest, out: StreamEvent[]): void {
  let extras: Pick<TextDelta, 'tokenIds' | 'logprobs'> | undefined = {
    ...(source.tokenIds ? { tokenIds: source.tokenIds } : {}),
    ...(source.logprobs ? { logprobs: source.logprobs } : {}),
  };
  const take = () => {
    const taken = extras ?? {};
    extras = undefined;
    return taken;
  };
  for (const piece of pieces) {
    if (piece.kind === 'reasoning') out.push({ type: 'reasoning-delta', choice: source.choice, delta: piece.text, ...take() });
    else if (parse.tools) toolEvents({ ...source, ...take() }, parse.tools.push(piece.text), parse, request, out);
    else if (parse.held !== undefined) parse.held += piece.text;
    else out.push({ type: 'text-delta', choice: source.choice, delta: piece.text, ...take() });
  }
  // A chunk wholly held back (part of a tag) still carries its token data.
  if (extras && (extras.tokenIds || extras.logprobs) && !parse.tools && parse.held === undefined) {
    out.push({ type: 'text-delta', choice: source.choice, delta: '', ...extras });
  }
}

/** Text around tool calls streams on; each call goes out whole (`parallel_tool_calls: false`: the first only). */
function toolEvents(source: TextDelta, pieces: ToolStreamPiece[], parse: ChoiceParse, request: NeutralRequest, out: StreamEvent[]): void {
  let first = true;
  for (const piece of pieces) {
    if (piece.kind === 'text') {
      out.push({
        type: 'text-delta',
        choice: source.choice,
        delta: piece.text,
        ...(first && source.tokenIds ? { tokenIds: source.tokenIds } : {}),
        ...(first && source.logprobs ? { logprobs: source.logprobs } : {}),
      });
      first = false;
    } else if (request.parallelToolCalls !== false || parse.calls === 0) {
      const { id, name, arguments: args } = piece.call;
      out.push({ type: 'tool-call-delta', choice: source.choice, index: parse.calls, id, name, argumentsDelta: args });
      parse.calls += 1;
    }
  }
}

/** `parallel_tool_calls: false` asks for at most one call: the first one the model made. */
function allowedCalls(calls: ToolCall[], request: NeutralRequest): ToolCall[] {
  return request.parallelToolCalls === false ? calls.slice(0, 1) : calls;
}
