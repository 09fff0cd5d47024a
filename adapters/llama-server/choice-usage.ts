/**
 * llama-server counts usage per choice, and never adds it up (captures README,
 * deviations 5 and 14): a non-streamed answer with `n` > 1 or a prompt batch
 * carries the first choice's usage alone; a stream sends each choice's own
 * usage after it ends. Neutral usage follows OpenAI's: a prompt's tokens once,
 * however many choices it has, and every choice's completion tokens.
 */
import { countPrompts } from '../../src/model/prompt.js';
import type { NeutralRequest } from '../../src/model/request.js';
import type { NeutralResult, ResultChoice, Usage } from '../../src/model/result.js';

/** The usages one stream reported, by choice index. */
export class ChoiceUsages {
  private readonly byChoice = new Map<number, Usage>();

  constructor(private readonly request: NeutralRequest) {}

  add(choice: number, usage: Usage): void {
    this.byChoice.set(choice, usage);
  }

  /**
   * @example // n: 2 on a 5-token prompt, 4 tokens each
   * usages.total() // {promptTokens: 5, completionTokens: 8, totalTokens: 13, cachedPromptTokens: 4}
   */
  total(): Usage | undefined {
    if (this.byChoice.size === 0) return undefined;
    const prompts = new Map<number, Usage>();
    let completionTokens = 0;
    let reasoningTokens: number | undefined;
    for (const [choice, usage] of [...this.byChoice].sort(([a], [b]) => a - b)) {
      const prompt = this.request.endpoint === 'text' ? Math.floor(choice / this.request.choices) : 0;
      if (!prompts.has(prompt)) prompts.set(prompt, usage);
      completionTokens += usage.completionTokens;
      if (usage.reasoningTokens !== undefined) reasoningTokens = (reasoningTokens ?? 0) + usage.reasoningTokens;
    }
    const promptTokens = sum([...prompts.values()].map((usage) => usage.promptTokens));
    const total: Usage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
    const cached = [...prompts.values()].map((usage) => usage.cachedPromptTokens);
    if (cached.some((count) => count !== undefined)) total.cachedPromptTokens = sum(cached.map((count) => count ?? 0));
    if (reasoningTokens !== undefined) total.reasoningTokens = reasoningTokens;
    return total;
  }
}

/**
 * A non-streamed result's usage over all its choices. With `n` > 1 on one
 * prompt, the prompt count is already right and each other choice's completion
 * tokens are known when they can be proven; otherwise (a prompt batch, or a
 * choice that stopped early without a count) the first choice's usage stays,
 * named in a warning.
 */
export function resultUsage(result: NeutralResult, request: NeutralRequest): Usage | undefined {
  const usage = result.usage;
  if (!usage || result.choices.length <= 1) return usage;
  const first = result.choices.find((choice) => choice.index === 0);
  const counts =
    countPrompts(request.endpoint === 'text' ? request.prompt : undefined) > 1
      ? []
      : result.choices.map((choice) => (choice.index === 0 ? usage.completionTokens : completionTokens(choice, first, usage)));
  if (counts.length > 0 && counts.every((count): count is number => count !== undefined)) {
    const completion = sum(counts);
    return { ...usage, completionTokens: completion, totalTokens: usage.promptTokens + completion };
  }
  request.warnings.push(
    `usage counts the first choice only: llama-server reports no usage for the other ${result.choices.length - 1} choice(s)`,
  );
  return usage;
}

function completionTokens(choice: ResultChoice, first: ResultChoice | undefined, usage: Usage): number | undefined {
  if (choice.finishReason !== 'length') return undefined;
  // Choices of one prompt that end on length all stop at the same limit: max_tokens, or the same slot context.
  if (first?.finishReason === 'length') return usage.completionTokens;
  // A choice cut by length has every generated token scored (llama.cpp trims scores only for a stop string).
  return choice.logprobs?.length;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
