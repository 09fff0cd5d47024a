import { ThinkingBudget } from '../../../adapters/llama-cpp/thinking-budget.js';

const tags = { budgetEndText: ' Enough.', openTag: '<think>', closeTag: '</think>' };

describe('ThinkingBudget', () => {
  it('counts tokens inside the thought, tags split across tokens included', () => {
    const budget = new ThinkingBudget({ ...tags, budgetTokens: 3 });
    expect(budget.observe('Hi <th')).toBe(false);
    expect(budget.observe('ink>')).toBe(false); // opens the thought; not counted
    expect(budget.observe('one')).toBe(false);
    expect(budget.observe(' two')).toBe(false);
    expect(budget.observe(' three')).toBe(true);
    expect(budget.thoughtTokens).toBe(3);
    expect(budget.forcedText).toBe(' Enough.</think>');
  });

  it('stops counting once the thought closes', () => {
    const budget = new ThinkingBudget({ ...tags, budgetTokens: 2, startsInside: true });
    expect(budget.observe('a')).toBe(false);
    expect(budget.observe('</think>')).toBe(false);
    expect(budget.observe('answer')).toBe(false);
    expect(budget.thoughtTokens).toBe(1);
  });

  it('with a zero budget, closes as soon as the thought opens', () => {
    expect(new ThinkingBudget({ ...tags, budgetTokens: 0 }).observe('<think>')).toBe(true);
  });
});
