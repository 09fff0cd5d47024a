/**
 * Counts the tokens generated inside a thought (`<think>` ... `</think>`) and
 * says when the budget is spent, so the generator can force the thought closed.
 */
import type { LlamaThinkingBudget } from './types.js';

export class ThinkingBudget {
  private inside: boolean;
  private tail = '';
  private spent = 0;
  private readonly keep: number;

  constructor(private readonly budget: LlamaThinkingBudget) {
    this.inside = budget.startsInside ?? false;
    this.keep = Math.max(budget.openTag.length, budget.closeTag.length) - 1;
  }

  /** Tokens generated inside thoughts so far. */
  get thoughtTokens(): number {
    return this.spent;
  }

  /** Text that closes the thought when the budget is spent. */
  get forcedText(): string {
    return this.budget.budgetEndText + this.budget.closeTag;
  }

  /** Feeds the text of one generated token; true when the thought must be closed now. */
  observe(text: string): boolean {
    const wasInside = this.inside;
    let scan = this.tail + text;
    for (;;) {
      const tag = this.inside ? this.budget.closeTag : this.budget.openTag;
      const at = scan.indexOf(tag);
      if (at < 0) break;
      this.inside = !this.inside;
      scan = scan.slice(at + tag.length);
    }
    this.tail = scan.slice(Math.max(0, scan.length - this.keep));
    if (this.inside && wasInside) this.spent++;
    return this.inside && this.spent >= this.budget.budgetTokens;
  }
}
