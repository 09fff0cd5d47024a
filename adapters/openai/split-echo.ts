/**
 * Completions `echo` / `echo_last`: backends put the echoed prompt at the start
 * of the choice's text (and its tokens at the start of the logprobs). The
 * neutral result keeps them apart: `text` is generated text only, the echoed
 * tokens go to `promptLogprobs`, and streamed echo is a `text-delta` with `echo: true`.
 */
import { promptOfChoice } from '../../src/model/prompt.js';
import { echoUnavailable } from '../../src/errors/catalogue.js';
import type { ProxyError } from '../../src/errors/proxy-error.js';
import type { TokenLogprob } from '../../src/model/logprobs.js';
import type { NeutralRequest } from '../../src/model/request.js';

/** How a choice's echo is recognised in the output. */
export type EchoPlan =
  /** `echo` on a string prompt: the output starts with the prompt text itself. */
  (
    | { kind: 'text'; text: string }
    /** `echo_last: N`, or `echo` on token ids: the first `count` tokens (needs token logprobs). */
    | { kind: 'tokens'; count: number }
  ) & {
    /** Where a disagreement between the text and its logprobs is said (the request's warnings). */
    warnings?: string[];
    /** The caller's field, for that warning. */
    param?: string;
  };

export interface OutputPiece {
  text: string;
  logprobs?: TokenLogprob[];
}

/** Undefined when the choice echoes nothing. */
export function echoPlanOf(request: NeutralRequest, choice: number): EchoPlan | undefined {
  const echo = request.echo;
  if (!echo || request.endpoint !== 'text') return undefined;
  const prompt = promptOfChoice(request, choice);
  const said = { warnings: request.warnings, param: echo.all ? 'echo' : 'echo_last' };
  if (echo.all) {
    if (typeof prompt === 'string') return { kind: 'text', text: prompt };
    return Array.isArray(prompt) ? { kind: 'tokens', count: prompt.length, ...said } : undefined;
  }
  const last = echo.lastTokens ?? 0;
  if (last <= 0) return undefined;
  return { kind: 'tokens', count: Array.isArray(prompt) ? Math.min(last, prompt.length) : last, ...said };
}

/** True when some choice's echo can only be told apart by its tokens, so the upstream must send logprobs. */
export function echoNeedsTokens(request: NeutralRequest): boolean {
  const echo = request.echo;
  if (!echo || request.endpoint !== 'text') return false;
  if (!echo.all) return (echo.lastTokens ?? 0) > 0;
  return typeof request.prompt !== 'string' && !(Array.isArray(request.prompt) && typeof request.prompt[0] === 'string');
}

/**
 * Splits one choice's output, piece by piece (a whole result is one piece), into
 * the echoed prompt and the generated rest.
 * @example new EchoSplitter({kind: 'text', text: 'Once'}).take('Once upon') // {echo: {text: 'Once'}, rest: {text: ' upon'}}
 */
export class EchoSplitter {
  private consumedText = 0;
  private consumedTokens = 0;
  /** The text and its token logprobs disagreed: the rest goes out as the backend sent it. */
  private gaveUp = false;

  constructor(private readonly plan: EchoPlan) {}

  get done(): boolean {
    if (this.gaveUp) return true;
    return this.plan.kind === 'text' ? this.consumedText >= this.plan.text.length : this.consumedTokens >= this.plan.count;
  }

  /** True once the echo could not be told apart: the caller's text is the backend's, unsplit. */
  get unsplit(): boolean {
    return this.gaveUp;
  }

  take(text: string, logprobs?: TokenLogprob[]): { echo?: OutputPiece; rest?: OutputPiece } {
    if (this.done) return { rest: piece(text, logprobs) };
    if (this.plan.kind === 'tokens' && !this.tokensMatch(text, logprobs)) {
      // Never rewrite what the backend sent: an empty echo, then its text as it came.
      this.gaveUp = true;
      this.plan.warnings?.push(
        `${this.plan.param ?? 'echo'}: the backend's logprobs do not match its text, so the echoed prompt cannot be told from the completion; the text is returned as the backend sent it`,
      );
      return { echo: { text: '' }, rest: piece(text, logprobs) };
    }
    const { length, tokens } = this.plan.kind === 'text' ? this.textEcho(text, logprobs) : this.tokenEcho(text, logprobs);
    const echo = piece(text.slice(0, length), logprobs?.slice(0, tokens));
    const rest = text.slice(length);
    const restLogprobs = logprobs?.slice(tokens);
    return rest === '' && !restLogprobs?.length ? { echo } : { echo, rest: piece(rest, restLogprobs) };
  }

  /** The echo is the prompt text; tokens that start inside it belong to the prompt. */
  private textEcho(text: string, logprobs: TokenLogprob[] | undefined): { length: number; tokens: number } {
    const remaining = (this.plan as { text: string }).text.slice(this.consumedText);
    const length = Math.min(remaining.length, text.length);
    if (text.slice(0, length) !== remaining.slice(0, length)) throw echoMissing('the output does not start with the prompt');
    this.consumedText += length;
    let at = 0;
    let tokens = 0;
    while (logprobs && tokens < logprobs.length && at < length) at += logprobs[tokens++].token.length;
    return { length, tokens };
  }

  /** Whether the echoed tokens' texts are where the text says they are (the start of it). */
  private tokensMatch(text: string, logprobs: TokenLogprob[] | undefined): boolean {
    if (!logprobs?.length) return true;
    const count = Math.min((this.plan as { count: number }).count - this.consumedTokens, logprobs.length);
    return text.startsWith(
      logprobs
        .slice(0, count)
        .map((entry) => entry.token)
        .join(''),
    );
  }

  /** The echo is the next `count` tokens; their texts say where it ends. */
  private tokenEcho(text: string, logprobs: TokenLogprob[] | undefined): { length: number; tokens: number } {
    if (!logprobs?.length) {
      if (text === '') return { length: 0, tokens: 0 };
      throw echoMissing('no token logprobs came back to tell the echoed tokens from the generated ones');
    }
    const tokens = Math.min((this.plan as { count: number }).count - this.consumedTokens, logprobs.length);
    this.consumedTokens += tokens;
    return { length: logprobs.slice(0, tokens).reduce((sum, entry) => sum + entry.token.length, 0), tokens };
  }
}

function piece(text: string, logprobs: TokenLogprob[] | undefined): OutputPiece {
  return logprobs && logprobs.length > 0 ? { text, logprobs } : { text };
}

function echoMissing(why: string): ProxyError {
  return echoUnavailable(`The backend did not echo the prompt as asked: ${why}.`);
}
