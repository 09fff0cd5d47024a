/** model/reasoning.ts: the reasoning_effort / thinking / reasoning_history precedence matrix and the effort ladder. */
import {
  budgetForEffort,
  DEFAULT_EFFORT_LADDER,
  effortForBudget,
  normalizeEffort,
  normalizeReasoning,
  type ReasoningWire,
} from '../../../../src/model/reasoning.js';
import { paramOf } from './expect-param.js';

describe('normalizeEffort', () => {
  it.each([
    ['low', { effort: 'low' }],
    ['minimal', { effort: 'minimal' }],
    ['adaptive', { effort: 'adaptive' }],
    [true, { effort: 'medium' }], // Fireworks: true becomes 'medium' before anything else
    [false, { effort: 'none' }],
    [4096, { budgetTokens: 4096 }], // a hard budget on medium-style thinking, no named effort
  ])('%p -> %p', (wire, expected) => {
    expect(normalizeEffort(wire, 'reasoning_effort')).toEqual(expected);
  });

  it.each([0, -5, 1.5, 'extreme', {}])('rejects %p naming the field', (wire) => {
    expect(paramOf(() => normalizeEffort(wire, 'thinking.effort'))).toBe('thinking.effort');
  });
});

describe('normalizeReasoning: precedence matrix', () => {
  const cases: [string, ReasoningWire, object, object, string[]][] = [
    ['effort string alone', { reasoning_effort: 'high' }, { effort: 'high' }, { 'reasoning.effort': 'reasoning_effort' }, []],
    ['effort true', { reasoning_effort: true }, { effort: 'medium' }, { 'reasoning.effort': 'reasoning_effort' }, []],
    ['effort integer', { reasoning_effort: 2000 }, { budgetTokens: 2000 }, { 'reasoning.budgetTokens': 'reasoning_effort' }, []],
    ['history alone', { reasoning_history: 'interleaved' }, { history: 'interleaved' }, { 'reasoning.history': 'reasoning_history' }, []],
    ['enabled alone = true', { thinking: { type: 'enabled' } }, { effort: 'medium' }, { 'reasoning.effort': 'thinking.type' }, []],
    [
      'enabled takes reasoning_effort',
      { reasoning_effort: 'high', thinking: { type: 'enabled' } },
      { effort: 'high' },
      { 'reasoning.effort': 'reasoning_effort' },
      [],
    ],
    [
      'thinking.effort overrides reasoning_effort',
      { reasoning_effort: 'low', thinking: { type: 'enabled', effort: 'max' } },
      { effort: 'max' },
      { 'reasoning.effort': 'thinking.effort' },
      ['reasoning_effort is overridden by thinking.effort.'],
    ],
    [
      'enabled with budget, effort and end text',
      { thinking: { type: 'enabled', budget_tokens: 4096, effort: 'high', budget_end_str: 'Time to answer.' } },
      { effort: 'high', budgetTokens: 4096, budgetEndText: 'Time to answer.' },
      {
        'reasoning.effort': 'thinking.effort',
        'reasoning.budgetTokens': 'thinking.budget_tokens',
        'reasoning.budgetEndText': 'thinking.budget_end_str',
      },
      [],
    ],
    [
      'budget_tokens alone = integer effort',
      { thinking: { type: 'enabled', budget_tokens: 1024 } },
      { budgetTokens: 1024 },
      { 'reasoning.budgetTokens': 'thinking.budget_tokens' },
      [],
    ],
    [
      'integer reasoning_effort with equal budget_tokens',
      { reasoning_effort: 2048, thinking: { type: 'enabled', budget_tokens: 2048 } },
      { budgetTokens: 2048 },
      { 'reasoning.budgetTokens': 'thinking.budget_tokens' },
      [],
    ],
    [
      'integer reasoning_effort with budget_end_str',
      { reasoning_effort: 3000, thinking: { type: 'enabled', budget_end_str: '' } },
      { budgetTokens: 3000, budgetEndText: '' },
      { 'reasoning.budgetTokens': 'reasoning_effort', 'reasoning.budgetEndText': 'thinking.budget_end_str' },
      [],
    ],
    [
      "keep 'all' = preserved",
      { thinking: { type: 'enabled', keep: 'all' }, reasoning_history: 'preserved' },
      { effort: 'medium', history: 'preserved' },
      { 'reasoning.effort': 'thinking.type', 'reasoning.history': 'reasoning_history' },
      [],
    ],
    ['disabled', { thinking: { type: 'disabled' } }, { effort: 'none' }, { 'reasoning.effort': 'thinking.type' }, []],
    [
      'disabled always disables',
      { reasoning_effort: 'high', thinking: { type: 'disabled' } },
      { effort: 'none' },
      { 'reasoning.effort': 'thinking.type' },
      ['reasoning_effort is overridden by thinking.type=disabled.'],
    ],
    [
      'disabled with effort none: no warning',
      { reasoning_effort: false, thinking: { type: 'disabled' } },
      { effort: 'none' },
      { 'reasoning.effort': 'thinking.type' },
      [],
    ],
    [
      'adaptive',
      { thinking: { type: 'adaptive' }, reasoning_history: 'disabled' },
      { effort: 'adaptive', history: 'disabled' },
      { 'reasoning.effort': 'thinking.type', 'reasoning.history': 'reasoning_history' },
      [],
    ],
    [
      'adaptive with reasoning_effort adaptive',
      { reasoning_effort: 'adaptive', thinking: { type: 'adaptive' } },
      { effort: 'adaptive' },
      { 'reasoning.effort': 'thinking.type' },
      [],
    ],
    [
      'null fields are unset',
      { reasoning_effort: null, thinking: null, reasoning_history: 'preserved' },
      { history: 'preserved' },
      { 'reasoning.history': 'reasoning_history' },
      [],
    ],
  ];
  it.each(cases)('%s', (_name, wire, reasoning, origins, warnings) => {
    expect(normalizeReasoning(wire)).toEqual({ reasoning, origins, warnings });
  });

  it.each([
    [
      "keep 'all' with history disabled",
      { thinking: { type: 'enabled', keep: 'all' }, reasoning_history: 'disabled' },
      'reasoning_history',
    ],
    [
      "keep 'all' with history interleaved",
      { reasoning_history: 'interleaved', thinking: { type: 'enabled', keep: 'all' } },
      'reasoning_history',
    ],
    ['enabled with reasoning_effort none', { reasoning_effort: 'none', thinking: { type: 'enabled' } }, 'reasoning_effort'],
    ['enabled with reasoning_effort false', { reasoning_effort: false, thinking: { type: 'enabled' } }, 'reasoning_effort'],
    ['enabled with thinking.effort none', { thinking: { type: 'enabled', effort: false } }, 'thinking.effort'],
    ['budget below 1024', { thinking: { type: 'enabled', budget_tokens: 1023 } }, 'thinking.budget_tokens'],
    [
      'budget conflicts with integer effort',
      { reasoning_effort: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } },
      'thinking.budget_tokens',
    ],
    [
      'budget conflicts with integer thinking.effort',
      { thinking: { type: 'enabled', budget_tokens: 2048, effort: 5000 } },
      'thinking.budget_tokens',
    ],
    ['budget_end_str without a budget', { thinking: { type: 'enabled', budget_end_str: 'Done.' } }, 'thinking.budget_end_str'],
    ["keep other than 'all'", { thinking: { type: 'enabled', keep: 'some' } }, 'thinking.keep'],
    ['unknown thinking key', { thinking: { type: 'enabled', budget: 5 } }, 'thinking.budget'],
    ['keep with disabled', { thinking: { type: 'disabled', keep: 'all' } }, 'thinking.keep'],
    ['budget with adaptive', { thinking: { type: 'adaptive', budget_tokens: 2048 } }, 'thinking.budget_tokens'],
    ['adaptive with another effort', { reasoning_effort: 'high', thinking: { type: 'adaptive' } }, 'reasoning_effort'],
    ['unknown thinking type', { thinking: { type: 'sometimes' } }, 'thinking.type'],
    ['thinking not an object', { thinking: 'enabled' }, 'thinking'],
    ['unknown history', { reasoning_history: 'forgotten' }, 'reasoning_history'],
    ['bad reasoning_effort', { reasoning_effort: 'extreme' }, 'reasoning_effort'],
  ])('%s -> 400', (_name, wire, param) => {
    expect(paramOf(() => normalizeReasoning(wire as ReasoningWire))).toBe(param);
  });
});

describe('effort ladder', () => {
  it.each([
    [0, 'none'],
    [1, 'minimal'],
    [1024, 'minimal'],
    [1025, 'low'],
    [2048, 'low'],
    [8192, 'medium'],
    [8193, 'high'],
    [32768, 'xhigh'],
    [65536, 'max'],
    [1_000_000, 'max'], // beyond the top rung: the top effort
  ])('effortForBudget(%p) = %p', (budget, effort) => {
    expect(effortForBudget(budget)).toBe(effort);
  });

  it.each([
    ['none', 0],
    ['low', 2048],
    ['medium', 8192],
    ['max', 65536],
    ['adaptive', undefined],
  ] as const)('budgetForEffort(%p) = %p', (effort, budget) => {
    expect(budgetForEffort(effort)).toBe(budget);
  });

  it('round-trips every rung of the default ladder', () => {
    for (const rung of DEFAULT_EFFORT_LADDER) expect(effortForBudget(budgetForEffort(rung.effort) as number)).toBe(rung.effort);
  });

  it('takes a ladder of only the efforts a backend accepts', () => {
    const ladder = [
      { effort: 'low', upTo: 4000 },
      { effort: 'medium', upTo: 12000 },
      { effort: 'high', upTo: 30000 },
    ] as const;
    expect([effortForBudget(100, ladder), effortForBudget(5000, ladder), effortForBudget(99999, ladder)]).toEqual([
      'low',
      'medium',
      'high',
    ]);
    expect(budgetForEffort('xhigh', ladder)).toBeUndefined();
  });
});
