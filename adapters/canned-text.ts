/**
 * What every remote kind's canned answer says (`WarmUpTarget.cannedAnswer`, src/backend/backend-kind.ts):
 * a few tokens, each its own event when streamed, and their counts. Only the warm-up reads them.
 */
export const CANNED_TEXT = {
  tokens: [' Hello', ',', ' world', '.', ' Warm', ' up', ' done', '.'],
  promptTokens: 8,
  created: 1_700_000_000,
} as const;

/** One `data:` frame of a JSON value. */
export const cannedData = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
