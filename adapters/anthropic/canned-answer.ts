/** Anthropic's Messages wire, canned for the warm-up (`WarmUpTarget`): one message, or its named stream events. */
import type { CannedAnswer, CannedCall } from '../../src/backend/backend-kind.js';
import { CANNED_TEXT, cannedData } from '../canned-text.js';

const { tokens, promptTokens } = CANNED_TEXT;

export function cannedAnswer({ path, body }: CannedCall): CannedAnswer | undefined {
  if (!path.endsWith('/messages')) return undefined;
  const model = typeof body.model === 'string' ? body.model : 'warm-up';
  return body.stream === true ? { events: stream(model) } : { json: message(model) };
}

const message = (model: string) => ({
  id: 'msg_warm_up',
  type: 'message',
  role: 'assistant',
  model,
  content: [{ type: 'text', text: tokens.join('') }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: promptTokens, output_tokens: tokens.length },
});

const named = (value: { type: string } & Record<string, unknown>) => `event: ${value.type}\n${cannedData(value)}`;

const stream = (model: string) => [
  named({
    type: 'message_start',
    message: {
      id: 'msg_warm_up',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: promptTokens, output_tokens: 1 },
    },
  }),
  named({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ...tokens.map((text) => named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
  named({ type: 'content_block_stop', index: 0 }),
  named({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: tokens.length } }),
  named({ type: 'message_stop' }),
];
