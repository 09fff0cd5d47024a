/**
 * Gemini's wire, canned for the warm-up (`WarmUpTarget`): a GenerateContentResponse whole, or one per token
 * (`alt=sse`), the last with the finish and the usage. The model and whether it streams are in the path.
 */
import type { CannedAnswer, CannedCall } from '../../src/backend/backend-kind.js';
import { CANNED_TEXT, cannedData } from '../canned-text.js';

const { tokens, promptTokens } = CANNED_TEXT;
const METHOD = /\/models\/([^/:]+):(generateContent|streamGenerateContent)/;

export function cannedAnswer({ path }: CannedCall): CannedAnswer | undefined {
  const call = METHOD.exec(path);
  if (!call) return undefined;
  const model = decodeURIComponent(call[1]);
  if (call[2] === 'generateContent') return { json: response(model, tokens.join(''), true) };
  return { events: tokens.map((token, i) => cannedData(response(model, token, i === tokens.length - 1))) };
}

function response(model: string, text: string, last: boolean): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    ...(last
      ? {
          usageMetadata: {
            promptTokenCount: promptTokens,
            candidatesTokenCount: tokens.length,
            totalTokenCount: promptTokens + tokens.length,
          },
        }
      : {}),
    modelVersion: model,
    responseId: 'warm-up',
  };
}
