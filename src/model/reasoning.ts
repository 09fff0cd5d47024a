/**
 * Reasoning inputs -> `NeutralRequest.reasoning`, and the effort <-> budget ladder.
 *
 * Three wire fields meet here (Fireworks seed, `reasoning_effort` / `thinking` /
 * `reasoning_history`; OpenAI only has the string `reasoning_effort`):
 *  - `reasoning_effort`: a named effort; `true` = 'medium', `false` = 'none'
 *    (normalised first, as Fireworks does); an integer is a hard budget of
 *    thinking tokens on top of the model's medium-style thinking, so it becomes
 *    `budgetTokens` with no named effort.
 *  - `thinking` (Anthropic-style): `{type: 'enabled', budget_tokens, keep, budget_end_str, effort}`,
 *    `{type: 'disabled'}` (always disables), `{type: 'adaptive'}` (effort 'adaptive').
 *    `thinking.effort` overrides `reasoning_effort`; otherwise, for `enabled`,
 *    `reasoning_effort` is the effort ('medium' when there is neither it nor a budget).
 *  - `reasoning_history`: how earlier reasoning is kept in the prompt; `keep: 'all'` means 'preserved'.
 * Contradictions are a 400 naming the field; documented overrides leave a warning.
 */
import { invalidRequest } from '../errors/proxy-error.js';
import type { Effort, Reasoning } from './request.js';

export const EFFORTS: readonly Effort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive'];

const HISTORIES: readonly NonNullable<Reasoning['history']>[] = ['disabled', 'interleaved', 'preserved'];

/** Fireworks: `thinking.budget_tokens` must be >= 1024. */
export const MIN_THINKING_BUDGET = 1024;

/** The wire fields read, by wire name (a validated body will do). */
export interface ReasoningWire {
  reasoning_effort?: unknown;
  thinking?: unknown;
  reasoning_history?: unknown;
}

export interface NormalizedReasoning {
  reasoning: Reasoning;
  /** Neutral path (`reasoning.effort`, ...) -> the wire field that set it. */
  origins: Record<string, string>;
  warnings: string[];
}

type EffortValue = Pick<Reasoning, 'effort' | 'budgetTokens'>;

const isSet = (value: unknown): boolean => value !== null && value !== undefined;

/**
 * A `reasoning_effort`-style value (string, boolean or integer) -> effort and/or budget.
 * @example normalizeEffort(true, 'reasoning_effort') // {effort: 'medium'}
 * @example normalizeEffort(4096, 'reasoning_effort') // {budgetTokens: 4096}
 */
export function normalizeEffort(value: unknown, param: string): EffortValue {
  if (value === true) return { effort: 'medium' };
  if (value === false) return { effort: 'none' };
  if (typeof value === 'string' && (EFFORTS as readonly string[]).includes(value)) return { effort: value as Effort };
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (value < 1)
      throw invalidRequest(param, `${param} as an integer is a budget of thinking tokens and must be at least 1, got ${value}.`);
    return { budgetTokens: value };
  }
  throw invalidRequest(param, `${param} must be one of ${EFFORTS.join(', ')}, a boolean or a positive integer.`);
}

/** The three reasoning fields -> one neutral `reasoning`, or a 400 naming the conflicting field. */
export function normalizeReasoning(wire: ReasoningWire): NormalizedReasoning {
  const result: NormalizedReasoning = { reasoning: {}, origins: {}, warnings: [] };
  const top = isSet(wire.reasoning_effort) ? normalizeEffort(wire.reasoning_effort, 'reasoning_effort') : undefined;
  if (isSet(wire.thinking)) applyThinking(result, wire.thinking, top);
  else if (top) setEffort(result, top, 'reasoning_effort');
  if (isSet(wire.reasoning_history)) applyHistory(result, wire.reasoning_history);
  return result;
}

function applyThinking(result: NormalizedReasoning, thinking: unknown, top: EffortValue | undefined): void {
  if (typeof thinking !== 'object' || thinking === null || Array.isArray(thinking)) {
    throw invalidRequest('thinking', 'thinking must be an object with a type.');
  }
  const config = thinking as Record<string, unknown>;
  switch (config.type) {
    case 'disabled':
      onlyType(config, 'disabled');
      // Fireworks: "type=disabled always disables thinking", whatever reasoning_effort says.
      if (top && top.effort !== 'none') result.warnings.push('reasoning_effort is overridden by thinking.type=disabled.');
      setEffort(result, { effort: 'none' }, 'thinking.type');
      return;
    case 'adaptive':
      onlyType(config, 'adaptive');
      if (top && top.effort !== 'adaptive') {
        throw invalidRequest('reasoning_effort', 'reasoning_effort conflicts with thinking.type=adaptive; set one of them.');
      }
      setEffort(result, { effort: 'adaptive' }, 'thinking.type');
      return;
    case 'enabled':
      applyEnabled(result, config, top);
      return;
    default:
      throw invalidRequest('thinking.type', "thinking.type must be 'enabled', 'disabled' or 'adaptive'.");
  }
}

const ENABLED_KEYS = new Set(['type', 'budget_tokens', 'keep', 'budget_end_str', 'effort']);

function applyEnabled(result: NormalizedReasoning, config: Record<string, unknown>, top: EffortValue | undefined): void {
  for (const key of Object.keys(config)) {
    if (!ENABLED_KEYS.has(key) && isSet(config[key])) throw invalidRequest(`thinking.${key}`, `Unrecognized thinking field: ${key}.`);
  }
  const own = isSet(config.effort) ? normalizeEffort(config.effort, 'thinking.effort') : undefined;
  if (own && top) result.warnings.push('reasoning_effort is overridden by thinking.effort.');
  const source = own ? 'thinking.effort' : top ? 'reasoning_effort' : 'thinking.type';
  // Fireworks: {type: enabled} = `true` ('medium'); with budget_tokens it = an integer effort (a budget, no named effort).
  const chosen: EffortValue = own ?? top ?? (isSet(config.budget_tokens) ? {} : { effort: 'medium' });
  if (chosen.effort === 'none') {
    throw invalidRequest(
      source,
      `${source} 'none' with thinking.type=enabled is not supported by this proxy: the two contradict each other; use thinking.type=disabled.`,
    );
  }

  const budget = config.budget_tokens;
  if (isSet(budget)) {
    if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < MIN_THINKING_BUDGET) {
      throw invalidRequest('thinking.budget_tokens', `thinking.budget_tokens must be an integer >= ${MIN_THINKING_BUDGET}.`);
    }
    if (chosen.budgetTokens !== undefined && chosen.budgetTokens !== budget) {
      throw invalidRequest(
        'thinking.budget_tokens',
        `thinking.budget_tokens (${budget}) conflicts with the integer ${source} (${chosen.budgetTokens}).`,
      );
    }
    setEffort(result, { effort: chosen.effort, budgetTokens: budget }, source);
    result.origins['reasoning.budgetTokens'] = 'thinking.budget_tokens';
  } else {
    setEffort(result, chosen, source);
  }

  if (isSet(config.keep)) {
    if (config.keep !== 'all') throw invalidRequest('thinking.keep', "thinking.keep must be 'all'.");
    result.reasoning.history = 'preserved';
    result.origins['reasoning.history'] = 'thinking.keep';
  }
  if (isSet(config.budget_end_str)) {
    if (typeof config.budget_end_str !== 'string')
      throw invalidRequest('thinking.budget_end_str', 'thinking.budget_end_str must be a string.');
    // Fireworks: "only meaningful when budget_tokens is set"; without a budget it would be ignored, so say so.
    if (result.reasoning.budgetTokens === undefined) {
      throw invalidRequest(
        'thinking.budget_end_str',
        'thinking.budget_end_str needs a thinking budget (thinking.budget_tokens or an integer effort).',
      );
    }
    result.reasoning.budgetEndText = config.budget_end_str;
    result.origins['reasoning.budgetEndText'] = 'thinking.budget_end_str';
  }
}

/** `disabled` and `adaptive` take no other fields (`keep` is "only valid when type is enabled"). */
function onlyType(config: Record<string, unknown>, type: string): void {
  for (const key of Object.keys(config)) {
    if (key !== 'type' && isSet(config[key]))
      throw invalidRequest(`thinking.${key}`, `thinking.${key} is not allowed with thinking.type=${type}.`);
  }
}

function applyHistory(result: NormalizedReasoning, value: unknown): void {
  if (!(HISTORIES as readonly unknown[]).includes(value)) {
    throw invalidRequest('reasoning_history', `reasoning_history must be one of ${HISTORIES.join(', ')}.`);
  }
  const history = value as NonNullable<Reasoning['history']>;
  if (result.reasoning.history !== undefined && result.reasoning.history !== history) {
    throw invalidRequest(
      'reasoning_history',
      `reasoning_history '${history}' conflicts with thinking.keep='all' (which means 'preserved').`,
    );
  }
  result.reasoning.history = history;
  result.origins['reasoning.history'] = 'reasoning_history';
}

function setEffort(result: NormalizedReasoning, value: EffortValue, origin: string): void {
  if (value.effort !== undefined) {
    result.reasoning.effort = value.effort;
    result.origins['reasoning.effort'] = origin;
  }
  if (value.budgetTokens !== undefined) {
    result.reasoning.budgetTokens = value.budgetTokens;
    result.origins['reasoning.budgetTokens'] = origin;
  }
}

/** One rung: efforts up to and including `upTo` thinking tokens. Rungs ascend; a ladder may hold only the efforts a backend accepts. */
export interface EffortRung {
  effort: Effort;
  upTo: number;
}

export type EffortLadder = readonly EffortRung[];

/**
 * The default ladder: minimal <= 1024 < low <= 2048 < medium <= 8192 < high <= 16384 < xhigh <= 32768 < max.
 * A guess at common practice, not any vendor's rule; routes may configure their own later.
 */
export const DEFAULT_EFFORT_LADDER: EffortLadder = [
  { effort: 'minimal', upTo: 1024 },
  { effort: 'low', upTo: 2048 },
  { effort: 'medium', upTo: 8192 },
  { effort: 'high', upTo: 16384 },
  { effort: 'xhigh', upTo: 32768 },
  { effort: 'max', upTo: 65536 },
];

/**
 * The smallest effort whose rung holds the budget; beyond the top rung, the top effort.
 * @example effortForBudget(4096) // 'medium'
 */
export function effortForBudget(budget: number, ladder: EffortLadder = DEFAULT_EFFORT_LADDER): Effort {
  if (budget <= 0) return 'none';
  if (ladder.length === 0) throw new RangeError('effortForBudget: empty ladder');
  return (ladder.find((rung) => budget <= rung.upTo) ?? ladder[ladder.length - 1]).effort;
}

/**
 * The budget an effort stands for (its rung's top); 0 for 'none'; undefined for
 * 'adaptive' or an effort the ladder lacks.
 * @example budgetForEffort('low') // 2048
 */
export function budgetForEffort(effort: Effort, ladder: EffortLadder = DEFAULT_EFFORT_LADDER): number | undefined {
  if (effort === 'none') return 0;
  return ladder.find((rung) => rung.effort === effort)?.upTo;
}
