/** Ids for the function calls Gemini answers without one: from its `responseId` when it gives one (the same answer, the same ids), else random. */
import { randomBytes } from 'node:crypto';

/**
 * @example callIds('resp-1')(0) // 'call_resp1_0'
 */
export function callIds(responseId: unknown): (n: number) => string {
  const base =
    typeof responseId === 'string' && responseId.replace(/[^A-Za-z0-9]/g, '') !== ''
      ? responseId.replace(/[^A-Za-z0-9]/g, '')
      : randomBytes(12).toString('hex');
  return (n) => `call_${base}_${n}`;
}
