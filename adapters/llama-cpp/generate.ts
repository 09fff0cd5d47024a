/**
 * One generation on one context sequence, as a stream of LlamaEvents: prompt
 * prefix reuse, echo with prompt logprobs, the token loop (stop sequences,
 * max_tokens, EOS, thinking budget, cancellation within one token), exact usage
 * and timings.
 */
import type { Llama, LlamaContextSequence, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import type { CacheEdits } from './cache-edits.js';
import { describeToken, describeUnscored, type TokenDescriber } from './describe-token.js';
import type { PreparedGeneration } from './prepare-generation.js';
import { SequenceStepper } from './sequence-stepper.js';
import { ThinkingBudget } from './thinking-budget.js';
import { asTokens, evaluateItem } from './token-ids.js';
import { TokenOutput, type OutputToken, type ReleasedChunk } from './token-output.js';
import type { LlamaEcho, LlamaEvent, LlamaFinishReason, LlamaPromptLogprob } from './types.js';

export interface GenerationJob {
  prepared: PreparedGeneration;
  sequence: LlamaContextSequence;
  model: LlamaModel;
  llama: Llama;
  grammar?: LlamaGrammar;
  tokenBytes: readonly Uint8Array[];
  eogTokens: readonly number[];
  /** Shared by the context's sequences: cache edits pause every token loop. */
  cacheEdits: CacheEdits;
  isAborted(): boolean;
  /** performance.now() when the worker received the request, and when it got its sequence. */
  receivedAt: number;
  startedAt: number;
}

export async function* generate(job: GenerationJob): AsyncGenerator<LlamaEvent> {
  const { prepared, sequence, model } = job;
  const { request, promptTokens } = prepared;
  const describer: TokenDescriber = { model, tokenBytes: job.tokenBytes, top: request.logprobs ?? 0 };
  const echoFrom = echoStart(prepared);
  const wantsPromptLogprobs = echoFrom !== undefined && request.logprobs !== undefined;

  // Reuse the evaluated prefix the sequence already holds; prompt logprobs need fresh evaluation.
  let reuse = Math.min(sequence.compareContextTokens(asTokens(promptTokens)).firstDifferentIndex, promptTokens.length - 1);
  if (wantsPromptLogprobs) reuse = Math.min(reuse, Math.max(0, (echoFrom as number) - 1));
  if (reuse < sequence.nextTokenIndex) {
    await job.cacheEdits.run(() => sequence.eraseContextTokenRanges([{ start: reuse, end: sequence.nextTokenIndex }]));
  }
  let pending = promptTokens.slice(reuse);

  let echo: LlamaEcho | undefined;
  if (echoFrom !== undefined) {
    echo = { text: echoText(prepared, echoFrom, model), tokenIds: promptTokens.slice(echoFrom) };
    if (wantsPromptLogprobs) {
      echo.logprobs = matchLeadingSpace(await promptLogprobs(sequence, promptTokens, reuse, echoFrom, describer), echo.text);
      pending = promptTokens.slice(-1);
    }
  }
  yield { type: 'prompt', tokenIds: promptTokens, ...(echo ? { echo } : {}) };

  const history = [...promptTokens];
  const stepper = new SequenceStepper({ ...job, history });
  // A grammar's stop triggers (JSON: four newlines) end its padding; its trailing whitespace is dropped.
  const grammarStops = (job.grammar?.stopGenerationTriggers ?? []).flatMap((trigger) => {
    if (typeof trigger === 'string') return [trigger];
    if (Array.isArray(trigger)) return trigger.every((part) => typeof part === 'string') ? [trigger.join('')] : [];
    return [trigger.toString()];
  });
  const output = new TokenOutput(
    [...request.stop, ...grammarStops],
    (token) => job.tokenBytes[token] ?? new Uint8Array(0),
    job.grammar?.trimWhitespaceSuffix ?? false,
  );
  const thinking = request.thinking ? new ThinkingBudget(request.thinking) : undefined;
  const wantsLogprobs = request.logprobs !== undefined;
  let completionTokens = 0;
  let finishReason: LlamaFinishReason = 'length';
  let firstTokenAt: number | undefined;

  const emit = (token: OutputToken): { event?: LlamaEvent; stopped: boolean; decoded: string } => {
    completionTokens++;
    history.push(token.id);
    const pushed = output.push(token);
    return { event: pushed.released && tokenEvent(pushed.released), stopped: pushed.stopped, decoded: pushed.decoded };
  };

  try {
    stepper.start(pending);
    while (completionTokens < prepared.maxTokens) {
      if (job.cacheEdits.pause) await job.cacheEdits.pause;
      if (job.isAborted()) break;
      let step;
      try {
        step = await stepper.next();
      } catch (error) {
        // A grammar that admits nothing more (e.g. complete JSON with EOS banned) ends the text.
        if (job.grammar) {
          finishReason = 'stop';
          break;
        }
        throw error;
      }
      firstTokenAt ??= performance.now();
      if (job.eogTokens.includes(step.token) && !request.ignoreEos) {
        completionTokens++;
        finishReason = 'stop';
        break;
      }
      const logprob = wantsLogprobs && step.probabilities ? describeToken(describer, step.token, step.probabilities) : undefined;
      const sampled = emit(logprob ? { id: step.token, logprob } : { id: step.token });
      if (sampled.event) yield sampled.event;
      if (sampled.stopped) {
        finishReason = 'stop';
        break;
      }
      if (thinking?.observe(sampled.decoded) && completionTokens < prepared.maxTokens) {
        const forced = await forceText(job, stepper, step.token, thinking.forcedText, prepared.maxTokens - completionTokens, describer);
        let stopped = false;
        for (const token of forced) {
          const result = emit(token);
          thinking.observe(result.decoded);
          if (result.event) yield result.event;
          if ((stopped = result.stopped)) break;
        }
        if (stopped) {
          finishReason = 'stop';
          break;
        }
      }
    }
  } finally {
    await stepper.close();
  }
  const rest = output.flush();
  if (rest) yield tokenEvent(rest);
  const endAt = performance.now();
  const first = firstTokenAt ?? endAt;
  const generationMs = endAt - first;
  yield {
    type: 'end',
    finishReason,
    usage: { promptTokens: promptTokens.length, completionTokens, cachedPromptTokens: reuse },
    perf: {
      queueMs: job.startedAt - job.receivedAt,
      prefillMs: first - job.startedAt,
      timeToFirstTokenMs: first - job.receivedAt,
      generationMs,
      totalMs: endAt - job.receivedAt,
      tokensPerSecond: completionTokens > 1 && generationMs > 0 ? ((completionTokens - 1) * 1000) / generationMs : 0,
    },
  };
}

function tokenEvent(chunk: ReleasedChunk): LlamaEvent {
  const logprobs = chunk.tokens.flatMap((token) => (token.logprob ? [token.logprob] : []));
  return {
    type: 'token',
    text: chunk.text,
    tokenIds: chunk.tokens.map((token) => token.id),
    ...(logprobs.length > 0 ? { logprobs } : {}),
  };
}

/** First prompt index to echo (an automatically added BOS is not part of the caller's prompt). */
function echoStart({ request, promptTokens, bosAdded }: PreparedGeneration): number | undefined {
  if (!request.echo) return undefined;
  const first = bosAdded ? 1 : 0;
  if (request.echo.lastTokens !== undefined) return Math.max(first, promptTokens.length - request.echo.lastTokens);
  return first;
}

/** The echoed text: the caller's own string when all of it is echoed, else decoded in context. */
function echoText({ request, promptTokens, bosAdded }: PreparedGeneration, echoFrom: number, model: LlamaModel): string {
  const first = bosAdded ? 1 : 0;
  if (request.echo?.lastTokens === undefined) {
    return typeof request.prompt === 'string' ? request.prompt : model.detokenize(asTokens(promptTokens.slice(first)));
  }
  const before = promptTokens.slice(Math.max(first, echoFrom - 8), echoFrom);
  return model.detokenize(asTokens(promptTokens.slice(echoFrom)), false, asTokens(before));
}

/**
 * SentencePiece gives the first word of a text a prefix space ("▁Once") that
 * the text itself does not have. The echoed tokens must join to the echoed
 * text, so that token's text drops the space (its bytes stay the raw piece).
 */
function matchLeadingSpace(logprobs: LlamaPromptLogprob[], text: string): LlamaPromptLogprob[] {
  const [first] = logprobs;
  if (!first || !first.token.startsWith(' ') || text.startsWith(' ')) return logprobs;
  return [{ ...first, token: first.token.slice(1) }, ...logprobs.slice(1)];
}

/** Evaluates all prompt tokens but the last, keeping the distributions that score the echoed ones. */
async function promptLogprobs(
  sequence: LlamaContextSequence,
  prompt: readonly number[],
  from: number,
  echoFrom: number,
  describer: TokenDescriber,
): Promise<LlamaPromptLogprob[]> {
  const items = prompt.slice(from, -1).map((token, i) => evaluateItem(token, from + i >= echoFrom - 1));
  const results = items.length > 0 ? await sequence.controlledEvaluate(items) : [];
  const logprobs: LlamaPromptLogprob[] = [];
  for (let j = echoFrom; j < prompt.length; j++) {
    const distribution = j > 0 ? results[j - 1 - from]?.next.probabilities : undefined;
    logprobs.push(distribution ? describeToken(describer, prompt[j], distribution) : describeUnscored(describer, prompt[j]));
  }
  return logprobs;
}

/**
 * Closes a thought whose budget is spent: `sampled` and the forced text's tokens
 * go into the sequence (with their real logprobs when asked), and generation
 * restarts after them. Returns the forced tokens (cut to `room`).
 */
async function forceText(
  job: GenerationJob,
  stepper: SequenceStepper,
  sampled: number,
  text: string,
  room: number,
  describer: TokenDescriber,
): Promise<OutputToken[]> {
  const forced = tokenizeContinuation(job, text).slice(0, room);
  if (forced.length === 0) return [];
  await stepper.close();
  const withLogprobs = job.prepared.request.logprobs !== undefined;
  const inputs = [sampled, ...forced.slice(0, -1)];
  const results = await job.sequence.controlledEvaluate(inputs.map((token) => evaluateItem(token, withLogprobs)));
  stepper.start([forced[forced.length - 1]]);
  return forced.map((id, i) => {
    const distribution = results[i]?.next.probabilities;
    return withLogprobs && distribution ? { id, logprob: describeToken(describer, id, distribution) } : { id };
  });
}

/**
 * Tokens whose text is exactly `text` where it continues a sequence. SentencePiece
 * tokenizers add a prefix space to text they see as a beginning, so the text is
 * tokenized after a newline sentinel and the sentinel's tokens are dropped.
 */
function tokenizeContinuation({ model, tokenBytes }: GenerationJob, text: string): number[] {
  const decoder = new TextDecoder();
  const decode = (tokens: readonly number[]) =>
    decoder.decode(Uint8Array.from(tokens.flatMap((token) => Array.from(tokenBytes[token] ?? []))));
  const plain: number[] = model.tokenize(text, true);
  if (decode(plain) === text) return plain;
  const sentinel = '\n';
  const tokens: number[] = model.tokenize(sentinel + text, true);
  for (let i = 1; i < tokens.length; i++) {
    const head = decode(tokens.slice(0, i));
    if (head !== sentinel && head !== ` ${sentinel}`) continue;
    const rest = tokens.slice(i);
    if (decode(rest) === text) return rest;
  }
  return plain;
}
