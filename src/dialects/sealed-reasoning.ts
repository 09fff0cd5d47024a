/**
 * Reasoning the proxy seals for a caller to hand back (sealer.ts): its text and what the backend needs
 * to be given it again (an Anthropic signature, redacted blocks). The Responses API's `encrypted_content`
 * and Gemini's `thoughtSignature` carry it, each under its own purpose: so these two dialects read
 * Anthropic's redacted reasoning (its namespace, vendor-data.ts), to carry it to the next turn.
 */
import { isRecord } from '../model/is-record.js';
import type { Message } from '../model/request.js';
import type { VendorData } from '../model/vendor-data.js';

/** No `text`: the reasoning was not kept (longer than the proxy repeats, or the caller's own copy stands). */
export interface SealedReasoning {
  text?: string;
  signature?: string;
  /** Anthropic's redacted reasoning (`vendor.anthropic.redactedReasoning`), under the name seals already made carry. */
  redacted?: string[];
}

/** What a result's choice gives a seal of Anthropic's redacted reasoning: `{redacted}`, or nothing when it has none. */
export function redactedOf(choice: { vendor?: VendorData<'choice'> }): Pick<SealedReasoning, 'redacted'> {
  const redacted = choice.vendor?.anthropic?.redactedReasoning;
  return redacted?.length ? { redacted } : {};
}

/** A message given back the redacted reasoning a seal carried, in Anthropic's namespace. */
export function restoreRedacted(message: Message, redacted: string[] | undefined): void {
  if (redacted?.length) message.vendor = { ...message.vendor, anthropic: { ...message.vendor?.anthropic, redactedReasoning: redacted } };
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
