/**
 * Completions `echo` / `echo_last`. The neutral choice's `text` never holds the
 * prompt; this works out what to prepend: the backend's `echoText`, else the
 * prompt string itself for `echo` on a string prompt, else the texts of the
 * echoed prompt tokens (`promptLogprobs`, trimmed to the last N for `echo_last`).
 */
import { echoUnavailable } from '../../errors/catalogue.js';
import type { ProxyError } from '../../errors/proxy-error.js';
import type { NeutralRequest } from '../../model/request.js';
import type { ResultChoice } from '../../model/result.js';
import type { TokenLogprob } from '../../model/logprobs.js';
import { promptOfChoice } from '../../model/prompt.js';

export interface Echo {
  text: string;
  /** The echoed prompt tokens (may be empty when the text came from the prompt string). */
  tokens: TokenLogprob[];
}

/** True when the caller asked for any part of the prompt back. */
export function wantsEcho(request: NeutralRequest): boolean {
  return request.echo !== undefined && (request.echo.all || (request.echo.lastTokens ?? 0) > 0);
}

/** Undefined when no echo was asked; throws when the backend gave nothing to echo and the prompt cannot stand in. */
export function echoText(choice: ResultChoice, request: NeutralRequest): Echo | undefined {
  if (!wantsEcho(request)) return undefined;
  const all = request.echo?.all === true;
  const lastTokens = request.echo?.lastTokens ?? 0;
  const tokens = choice.promptLogprobs && !all ? choice.promptLogprobs.slice(-lastTokens) : choice.promptLogprobs;
  const prompt = promptOfChoice(request, choice.index);
  if (choice.echoText !== undefined) return { text: choice.echoText, tokens: tokens ?? [] };
  if (all && typeof prompt === 'string') return { text: prompt, tokens: tokens ?? [] };
  if (tokens) return { text: tokens.map((token) => token.token).join(''), tokens };
  // An empty prompt (no token ids) echoes nothing, whatever the backend sent.
  if (isEmptyPrompt(prompt)) return { text: '', tokens: [] };
  throw noPromptTokensToEcho(request);
}

/** A prompt of no tokens: `[]` (or an empty one in a batch). */
export function isEmptyPrompt(prompt: unknown): boolean {
  return Array.isArray(prompt) && prompt.length === 0;
}

/** Echo text we cannot produce is an error, never a silent omission. */
export function noPromptTokensToEcho(request: NeutralRequest): ProxyError {
  return echoUnavailable('The backend returned no prompt tokens to echo for this prompt.', request.echo?.all ? 'echo' : 'echo_last');
}
