import { applyReasoningHistory } from '../../../src/pipeline/plan/emulate/apply-reasoning-history.js';
import type { Message } from '../../../src/model/request.js';

const conversation: Message[] = [
  { role: 'user', content: 'q1' },
  { role: 'assistant', content: 'a1', reasoning: 'r1' },
  { role: 'user', content: 'q2' },
  { role: 'assistant', content: 'a2', reasoning: 'r2' },
];

describe('applyReasoningHistory', () => {
  test('preserved keeps every thought', () => {
    expect(applyReasoningHistory(conversation, 'preserved')).toEqual(conversation);
  });
  test('interleaved strips thoughts up to the last user message', () => {
    expect(applyReasoningHistory(conversation, 'interleaved').map((m) => m.reasoning)).toEqual([undefined, undefined, undefined, 'r2']);
  });
  test('disabled strips every thought', () => {
    expect(applyReasoningHistory(conversation, 'disabled').some((m) => 'reasoning' in m)).toBe(false);
  });
});
