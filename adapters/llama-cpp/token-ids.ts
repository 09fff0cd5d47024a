/** node-llama-cpp brands token ids; our ids are plain numbers (they cross postMessage and JSON). */
import type { ControlledEvaluateInputItem, Token } from 'node-llama-cpp';

export const asToken = (id: number): Token => id as Token;
export const asTokens = (ids: readonly number[]): Token[] => ids as Token[];

/** A controlledEvaluate input, asking for the next-token distribution when `withProbabilities`. */
export function evaluateItem(id: number, withProbabilities: boolean): ControlledEvaluateInputItem {
  return withProbabilities ? [asToken(id), { generateNext: { probabilities: true } }] : asToken(id);
}
