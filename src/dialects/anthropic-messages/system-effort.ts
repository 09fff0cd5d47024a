/**
 * A system message among the turns (Claude Code sends one) may carry, as
 * Anthropic's beta has it, `clear_at: next_user_message` (it stops applying at
 * the next user turn) and `output_config.effort` (the effort from there on).
 * A system message that has stopped applying is left out of the conversation,
 * as the API leaves it out; the effort of the last one still in force is the
 * answer's (the answer comes after every turn), over the request's own.
 */
import { isRecord } from '../../model/is-record.js';
import { isSet } from '../../model/is-set.js';

/** Whether the system message at `i` still applies where the answer starts. */
export function stillApplies(messages: readonly unknown[], i: number): boolean {
  const message = messages[i];
  if (!isRecord(message) || message.role !== 'system' || message.clear_at !== 'next_user_message') return true;
  return !messages.slice(i + 1).some((later) => isRecord(later) && later.role === 'user');
}

/**
 * The effort the last system message still in force sets, and its path; undefined without one.
 * @example systemEffort([{role: 'user', content: 'Hi'}, {role: 'system', content: 'x', output_config: {effort: 'low'}}], 'messages')
 * // {effort: 'low', param: 'messages[1].output_config.effort'}
 */
export function systemEffort(messages: unknown, field: string): { effort: unknown; param: string } | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message: unknown = messages[i];
    if (!isRecord(message) || message.role !== 'system' || !isRecord(message.output_config) || !isSet(message.output_config.effort))
      continue;
    if (stillApplies(messages, i)) return { effort: message.output_config.effort, param: `${field}[${i}].output_config.effort` };
  }
  return undefined;
}
