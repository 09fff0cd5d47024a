/**
 * `reasoning_history`, done in the proxy when it renders the prompt itself:
 * `disabled` strips reasoning from every message, `interleaved` from every
 * message up to and including the last user message, `preserved` keeps all.
 */
import type { Message, Reasoning } from '../../../model/request.js';

export function applyReasoningHistory(messages: readonly Message[], history: NonNullable<Reasoning['history']>): Message[] {
  if (history === 'preserved') return [...messages];
  const lastUser = history === 'disabled' ? messages.length - 1 : messages.map((message) => message.role).lastIndexOf('user');
  return messages.map((message, i) => {
    if (i > lastUser || message.reasoning === undefined) return message;
    const { reasoning: _reasoning, ...rest } = message;
    return rest;
  });
}
