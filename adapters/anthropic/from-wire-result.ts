/**
 * An Anthropic `message` -> NeutralResult, one choice: text blocks joined into
 * the text, thinking blocks into the reasoning (with the signature, when there
 * is one block to sign), redacted thinking kept as it came, `tool_use` blocks as
 * tool calls (their `input` as JSON text). Blocks of Anthropic's server tools
 * (web search and the like, which the proxy never asks for) are left out.
 */
import { upstreamBadResponse } from '../../src/errors/catalogue.js';
import { isRecord } from '../../src/model/is-record.js';
import type { NeutralRequest, ToolCall } from '../../src/model/request.js';
import type { NeutralResult, ResultChoice } from '../../src/model/result.js';
import { mapErrorEvent } from './anthropic-errors.js';
import { readServiceTier, readStopReason, readWireUsage, toUsage } from './read-wire.js';

/**
 * @example
 * fromWireResult({type: 'message', id: 'msg_1', model: 'claude-x', role: 'assistant', content: [{type: 'text', text: 'Hi'}],
 *   stop_reason: 'end_turn', usage: {input_tokens: 3, output_tokens: 1}}, request)
 * // {id: 'msg_1', model: 'claude-x', created: <now>, choices: [{index: 0, text: 'Hi', finishReason: 'stop'}], usage: {...}}
 */
export function fromWireResult(body: unknown, request: NeutralRequest): NeutralResult {
  if (isRecord(body) && body.type === 'error') throw mapErrorEvent(body, request);
  if (!isRecord(body) || !Array.isArray(body.content)) {
    throw upstreamBadResponse('The upstream backend returned a body that is not a message (no `content` list).');
  }
  const result: NeutralResult = {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : request.model,
    created: Math.floor(Date.now() / 1000),
    choices: [readChoice(body)],
  };
  if (isRecord(body.usage)) result.usage = toUsage(readWireUsage(body.usage));
  const tier = readServiceTier(body.usage);
  if (tier) result.serviceTier = tier;
  return result;
}

function readChoice(body: Record<string, unknown>): ResultChoice {
  const blocks = (body.content as unknown[]).filter(isRecord);
  let text = '';
  const thinking: { text: string; signature?: string }[] = [];
  const redacted: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        if (typeof block.text === 'string') text += block.text;
        break;
      case 'thinking':
        thinking.push({
          text: typeof block.thinking === 'string' ? block.thinking : '',
          ...(typeof block.signature === 'string' ? { signature: block.signature } : {}),
        });
        break;
      case 'redacted_thinking':
        if (typeof block.data === 'string') redacted.push(block.data);
        break;
      case 'tool_use':
        toolCalls.push({
          id: typeof block.id === 'string' ? block.id : '',
          name: typeof block.name === 'string' ? block.name : '',
          arguments: JSON.stringify(block.input ?? {}),
        });
        break;
    }
  }
  const finishReason = readStopReason(body.stop_reason);
  const choice: ResultChoice = { index: 0, text, finishReason };
  if (finishReason === 'stop' && typeof body.stop_sequence === 'string') choice.stopSequence = body.stop_sequence;
  const reasoning = thinking.map((block) => block.text).join('');
  if (reasoning !== '') choice.reasoning = reasoning;
  // A signature signs its own block's text: it can go back with the reasoning only when the reasoning is that one block.
  if (thinking.length === 1 && thinking[0].signature) choice.reasoningSignature = thinking[0].signature;
  if (redacted.length > 0) choice.vendor = { anthropic: { redactedReasoning: redacted } };
  if (toolCalls.length > 0) choice.toolCalls = toolCalls;
  return choice;
}
