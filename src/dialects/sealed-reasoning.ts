/**
 * Reasoning the proxy seals for a caller to hand back (sealer.ts): its text and what the backend needs
 * to be given it again (an Anthropic signature, redacted blocks). The Responses API's `encrypted_content`
 * and Gemini's `thoughtSignature` carry it, each under its own purpose.
 */
import { isRecord } from '../model/is-record.js';

/** No `text`: the reasoning was not kept (longer than the proxy repeats, or the caller's own copy stands). */
export interface SealedReasoning {
  text?: string;
  signature?: string;
  redacted?: string[];
}

/** What an opened seal held, keeping only the fields of their types. */
export function sealedReasoningOf(opened: unknown): SealedReasoning {
  if (!isRecord(opened)) return {};
  const { text, signature, redacted } = opened;
  return {
    ...(typeof text === 'string' ? { text } : {}),
    ...(typeof signature === 'string' ? { signature } : {}),
    ...(Array.isArray(redacted) ? { redacted: redacted.filter((data): data is string => typeof data === 'string') } : {}),
  };
}
