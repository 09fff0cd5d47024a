/**
 * NeutralResult -> Anthropic's `message`: content blocks in the order the
 * model produced them (thinking with its signature, redacted thinking, text,
 * tool_use), the stop reason, and the usage in Anthropic's split. Messages
 * has no `n`: one choice.
 */
import type { NeutralRequest } from '../../model/request.js';
import type { NeutralResult } from '../../model/result.js';
import { callerModel, messageId, stopReasonOf, toolInput, toolUseId, usageBodyOf } from './message-body.js';
import { proxySignature } from './thinking-signature.js';

export function serializeMessagesResult(result: NeutralResult, request: NeutralRequest): Record<string, unknown> {
  const choice = result.choices[0];
  const content: Record<string, unknown>[] = [];
  if (choice?.reasoning !== undefined) {
    const omitted = request.echoedParams?.thinking_display === 'omitted';
    const signature = choice.reasoningSignature ?? proxySignature(choice.reasoning);
    content.push({ type: 'thinking', thinking: omitted ? '' : choice.reasoning, signature });
  }
  for (const data of choice?.vendor?.anthropic?.redactedReasoning ?? []) content.push({ type: 'redacted_thinking', data });
  if (choice?.text) content.push({ type: 'text', text: choice.text });
  if (choice?.refusal) content.push({ type: 'text', text: choice.refusal });
  for (const call of choice?.toolCalls ?? []) {
    content.push({
      type: 'tool_use',
      id: toolUseId(call.id),
      name: call.name,
      input: toolInput(call.arguments, request.warnings, call.name),
    });
  }
  return {
    id: messageId(result.id),
    type: 'message',
    role: 'assistant',
    model: callerModel(request, result.model),
    content,
    stop_reason: stopReasonOf(choice?.finishReason ?? null, choice?.stopSequence),
    stop_sequence: choice?.stopSequence ?? null,
    usage: usageBodyOf(result.usage),
  };
}
