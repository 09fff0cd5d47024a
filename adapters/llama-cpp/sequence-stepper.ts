/**
 * One token per step from a context sequence, with either llama.cpp's own
 * sampling (fast path) or the full next-token distribution and our sampling
 * (when logprobs or typical_p are asked). Also owns the native sampler options:
 * penalties, logit bias (ignore_eos included) and the grammar state.
 */
import {
  LlamaGrammarEvaluationState,
  TokenBias,
  type Llama,
  type LlamaContextSequence,
  type LlamaGrammar,
  type LlamaModel,
  type SequenceEvaluateOptions,
} from 'node-llama-cpp';
import type { PreparedGeneration } from './prepare-generation.js';
import { createRandom, sampleToken } from './sampler.js';
import { asToken, asTokens } from './token-ids.js';

/** llama.cpp's default `penalty_last_n`. */
const penaltyWindow = 64;

export interface Step {
  token: number;
  /** The next-token distribution after logit bias, penalties and grammar, before temperature and truncation. */
  probabilities?: ReadonlyMap<number, number>;
}

export interface StepperSetup {
  prepared: PreparedGeneration;
  sequence: LlamaContextSequence;
  model: LlamaModel;
  llama: Llama;
  grammar?: LlamaGrammar;
  eogTokens: readonly number[];
  /** Prompt and generated tokens so far, for the penalties' window. */
  history: number[];
}

type Evaluation = AsyncGenerator<number | { token: number; probabilities?: Map<number, number> }, void, void | number | number[]>;

export class SequenceStepper {
  /** True when we draw tokens ourselves from the full distribution. */
  readonly withDistribution: boolean;
  private readonly ownSampling: boolean;
  private readonly random: () => number;
  private grammarState?: LlamaGrammarEvaluationState;
  private stepGrammarState?: LlamaGrammarEvaluationState;
  private evaluation?: Evaluation;
  private nextInput?: number[];

  constructor(private readonly setup: StepperSetup) {
    const request = setup.prepared.request;
    const temperature = request.temperature ?? 1;
    const typical = request.typicalP !== undefined && request.typicalP < 1;
    this.withDistribution = request.logprobs !== undefined || (typical && temperature > 0);
    this.ownSampling = this.withDistribution && temperature > 0;
    this.random = createRandom(setup.prepared.seed);
    if (setup.grammar) this.grammarState = new LlamaGrammarEvaluationState({ model: setup.model, grammar: setup.grammar });
  }

  /** Starts (or restarts) generation by evaluating `tokens`. */
  start(tokens: number[]): void {
    this.nextInput = tokens;
    this.evaluation = undefined;
  }

  /** Evaluates the pending input and returns the next token (not yet evaluated). */
  async next(): Promise<Step> {
    if (!this.evaluation) {
      const input = this.nextInput ?? [];
      this.nextInput = undefined;
      this.evaluation = (
        this.withDistribution
          ? this.setup.sequence.evaluateWithMetadata(asTokens(input), { probabilities: true }, this.options())
          : this.setup.sequence.evaluate(asTokens(input), this.options())
      ) as Evaluation;
      return this.read(await this.evaluation.next());
    }
    const input = this.nextInput;
    this.nextInput = undefined;
    return this.read(await this.evaluation.next(input));
  }

  /** The token to evaluate next (the sampled one, or it followed by forced tokens). */
  feed(tokens: number[]): void {
    this.nextInput = tokens;
  }

  async close(): Promise<void> {
    const evaluation = this.evaluation;
    this.evaluation = undefined;
    await evaluation?.return();
  }

  private read(result: IteratorResult<number | { token: number; probabilities?: Map<number, number> }, void>): Step {
    if (result.done) throw new Error('The sequence stopped generating');
    const value = result.value;
    if (typeof value === 'number') return { token: value };
    const step: Step = { token: value.token, probabilities: value.probabilities };
    if (this.ownSampling && value.probabilities) {
      const request = this.setup.prepared.request;
      step.token = sampleToken(
        value.probabilities,
        {
          temperature: request.temperature ?? 1,
          topK: request.topK,
          topP: request.topP,
          minP: request.minP,
          typicalP: request.typicalP,
        },
        this.random,
      );
      this.commitGrammar(value.token, step.token);
    }
    this.nextInput = [step.token];
    return step;
  }

  /**
   * With our own sampling, llama.cpp advanced a clone of the grammar state with
   * its greedy pick; keep the clone when we chose the same token, else advance
   * the real state with ours.
   */
  private commitGrammar(greedy: number, chosen: number): void {
    if (!this.grammarState || !this.stepGrammarState) return;
    if (greedy === chosen) this.grammarState = this.stepGrammarState;
    else if (!this.setup.model.isEogToken(asToken(chosen))) acceptGrammarToken(this.setup.llama, this.grammarState, chosen);
  }

  private options(): SequenceEvaluateOptions {
    const { prepared, model, eogTokens, history } = this.setup;
    const request = prepared.request;
    const options: SequenceEvaluateOptions = this.withDistribution
      ? { temperature: 0 } // greedy: the distribution comes back untruncated and untempered
      : {
          temperature: request.temperature ?? 1,
          topK: request.topK ?? 0,
          topP: request.topP ?? 1,
          minP: request.minP ?? 0,
          seed: prepared.seed,
        };
    options.yieldEogToken = true;
    const biases = new Map<number, number>(Object.entries(request.logitBias ?? {}).map(([token, bias]) => [Number(token), bias]));
    if (request.ignoreEos) for (const token of eogTokens) biases.set(token, -Infinity);
    if (biases.size > 0) options.tokenBias = rawTokenBias(model, biases);
    if (request.repetitionPenalty !== undefined || request.presencePenalty || request.frequencyPenalty) {
      options.repeatPenalty = {
        punishTokens: () => asTokens(history.slice(-penaltyWindow)),
        maxPunishTokens: penaltyWindow,
        penalty: request.repetitionPenalty ?? 1,
        presencePenalty: request.presencePenalty ?? 0,
        frequencyPenalty: request.frequencyPenalty ?? 0,
      };
    }
    if (this.grammarState) {
      options.grammarEvaluationState = this.ownSampling
        ? () => (this.stepGrammarState = (this.grammarState as LlamaGrammarEvaluationState).clone())
        : this.grammarState;
    }
    return options;
  }
}

/**
 * A TokenBias with exact additive logit biases. `TokenBias.set` skips end-of-generation
 * tokens (so neither ignore_eos nor a caller's bias on EOS would work) and maps
 * numbers as probabilities; we fill its bias table directly (node-llama-cpp 3.21.1
 * reads `_biases` when building the native sampler).
 */
function rawTokenBias(model: LlamaModel, biases: Map<number, number>): TokenBias {
  const bias = new TokenBias(model.tokenizer);
  const table = (bias as unknown as { _biases?: unknown })._biases;
  if (!(table instanceof Map)) throw new Error('node-llama-cpp TokenBias has no _biases table (version change?)');
  for (const [token, logit] of biases) table.set(token, logit);
  return bias;
}

/** Advances a grammar state by one token through node-llama-cpp 3.21.1's native binding. */
function acceptGrammarToken(llama: Llama, state: LlamaGrammarEvaluationState, token: number): void {
  type Bindings = { AddonSampler?: { acceptGrammarEvaluationStateToken?(state: unknown, token: number): void } };
  const sampler = (llama as unknown as { _bindings?: Bindings })._bindings?.AddonSampler;
  const native = (state as unknown as { _state?: unknown })._state;
  if (!sampler?.acceptGrammarEvaluationStateToken || native === undefined) {
    throw new Error('node-llama-cpp cannot advance a grammar state here (version change?)');
  }
  sampler.acceptGrammarEvaluationStateToken(native, token);
}
