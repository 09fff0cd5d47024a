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

const chatStream = (model: string): string[] =>
  openaiStream({ id: 'chatcmpl-warm-up', object: 'chat.completion.chunk', model }, [
    { delta: { role: 'assistant', content: '' }, finish_reason: null },
    ...tokens.map((token) => ({ delta: { content: token }, finish_reason: null })),
    { delta: {}, finish_reason: 'stop' },
  ]);

const textResult = (model: string) => ({
  id: 'cmpl-warm-up',
  object: 'text_completion',
  created,
  model,
  choices: [{ index: 0, text: tokens.join(''), logprobs: null, finish_reason: 'stop' }],
  usage: USAGE,
});

const textStream = (model: string): string[] =>
  openaiStream({ id: 'cmpl-warm-up', object: 'text_completion', model }, [
    ...tokens.map((text) => ({ text, finish_reason: null })),
    { text: '', finish_reason: 'stop' },
  ]);

/** Both endpoints' streams: a chunk per choice part (index 0, no logprobs), the usage chunk, `[DONE]`. */
function openaiStream(
  { id, object, model }: { id: string; object: string; model: string },
  parts: { finish_reason: string | null; [field: string]: unknown }[],
): string[] {
  const chunk = (choices: unknown[], usage?: typeof USAGE) => data({ id, object, created, model, choices, ...(usage && { usage }) });
  return [
    ...parts.map(({ finish_reason, ...part }) => chunk([{ index: 0, ...part, logprobs: null, finish_reason }])),
    chunk([], USAGE),
    'data: [DONE]\n\n',
  ];
}
