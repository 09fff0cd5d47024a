/** The OpenAI wire's canned answers for the warm-up (`WarmUpTarget`): chat and completions, one body or a stream ending in `[DONE]`. */
import type { CannedAnswer, CannedCall } from '../../src/backend/backend-kind.js';
import { CANNED_TEXT, cannedData as data } from '../canned-text.js';

const { tokens, promptTokens, created } = CANNED_TEXT;
const USAGE = { prompt_tokens: promptTokens, completion_tokens: tokens.length, total_tokens: promptTokens + tokens.length };

export function cannedAnswer({ path, body }: CannedCall): CannedAnswer | undefined {
  const model = typeof body.model === 'string' ? body.model : 'warm-up';
  const stream = body.stream === true;
  if (path.endsWith('/chat/completions')) return stream ? { events: chatStream(model) } : { json: chatResult(model) };
  if (path.endsWith('/completions')) return stream ? { events: textStream(model) } : { json: textResult(model) };
  return undefined;
}

const chatResult = (model: string) => ({
  id: 'chatcmpl-warm-up',
  object: 'chat.completion',
  created,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: tokens.join('') }, logprobs: null, finish_reason: 'stop' }],
  usage: USAGE,
});

function chatStream(model: string): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    data({
      id: 'chatcmpl-warm-up',
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  return [
    chunk({ role: 'assistant', content: '' }, null),
    ...tokens.map((token) => chunk({ content: token }, null)),
    chunk({}, 'stop'),
    data({ id: 'chatcmpl-warm-up', object: 'chat.completion.chunk', created, model, choices: [], usage: USAGE }),
    'data: [DONE]\n\n',
  ];
}

const textResult = (model: string) => ({
  id: 'cmpl-warm-up',
  object: 'text_completion',
  created,
  model,
  choices: [{ index: 0, text: tokens.join(''), logprobs: null, finish_reason: 'stop' }],
  usage: USAGE,
});

function textStream(model: string): string[] {
  const chunk = (text: string, finish: string | null) =>
    data({
      id: 'cmpl-warm-up',
      object: 'text_completion',
      created,
      model,
      choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
    });
  return [
    ...tokens.map((token) => chunk(token, null)),
    chunk('', 'stop'),
    data({ id: 'cmpl-warm-up', object: 'text_completion', created, model, choices: [], usage: USAGE }),
    'data: [DONE]\n\n',
  ];
}
