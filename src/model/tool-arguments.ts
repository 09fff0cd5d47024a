/** A tool call's JSON arguments as one object, as the APIs that take them so want them (Anthropic's `input`, Gemini's `args`). */
import { isRecord } from './is-record.js';

/**
 * None is `{}`; undefined when they are not a JSON object (the caller says why, in its API's words).
 * @example argumentsObject('{"city":"Paris"}') // { city: 'Paris' }
 */
export function argumentsObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
