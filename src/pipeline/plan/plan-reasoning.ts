/**
 * A reasoning effort or thinking budget against what the routed model takes:
 * sent as asked, mapped to the nearest effort or a budget from the ladder
 * (with a warning), or refused naming the caller's field. Part of the plan step (plan.ts).
 */
import type { BackendCapabilities } from '../../backend/adapter.js';
import { handlingOf } from '../../backend/field-support.js';
import { invalidRequest } from '../../errors/proxy-error.js';
import { paramOf } from '../../model/neutral-fields.js';
import { DEFAULT_EFFORT_LADDER, budgetForEffort, effortForBudget, type EffortLadder } from '../../model/reasoning.js';
import type { Effort, Endpoint, NeutralRequest } from '../../model/request.js';
import type { NeutralField } from '../../model/neutral-fields.js';
import type { PlanNotes } from './plan-notes.js';
import type { Backend, RouteMatch } from './route-table.js';

/** The budget first (it may become an effort), then an effort the model does not take, on the endpoint the request goes to. */
export function planReasoning(request: NeutralRequest, match: RouteMatch, upstream: Endpoint, notes: PlanNotes): void {
  const { capabilities } = match.backend.adapter;
  const takes = (field: NeutralField) => takesOn(capabilities, field, upstream);
  const limits = reasoningLimits(match, takes);
  checkReasoningBudget(request, match.backend, limits, takes, notes);
  const effort = request.reasoning?.effort;
  if (effort !== undefined && !limits.efforts.has(effort)) mapEffort(request, effort, match.backend, limits, takes, notes);
}

type Takes = (field: NeutralField) => boolean;

const takesOn = (capabilities: BackendCapabilities, field: NeutralField, endpoint: Endpoint) =>
  handlingOf(capabilities.fields, field, endpoint).kind !== 'unsupported';

/** Efforts from least to most thinking; `none` (off) and `adaptive` stand apart. */
const GRADED: readonly Effort[] = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/**
 * An effort the backend does not take: the nearest graded effort it takes
 * (ties go to the lesser), else a thinking budget from the ladder where the
 * backend takes budgets, each named in a warning. `none` and `adaptive` have
 * no stand-in, and nothing fits a backend that takes neither: a 400 naming the caller's field.
 */
function mapEffort(
  request: NeutralRequest,
  effort: Effort,
  { name }: Backend,
  { efforts, ladder }: ReasoningLimits,
  takes: Takes,
  notes: PlanNotes,
): void {
  const reasoning = request.reasoning as NonNullable<NeutralRequest['reasoning']>;
  const param = request.origins['reasoning.effort'] ?? 'reasoning_effort';
  const accepted = efforts.size > 0 ? `accepted: ${[...efforts].join(', ')}` : 'this backend takes no reasoning effort';
  const rank = GRADED.indexOf(effort);
  const graded = GRADED.filter((candidate) => efforts.has(candidate));
  const distance = (other: Effort) => Math.abs(GRADED.indexOf(other) - rank);
  if (rank >= 0 && graded.length > 0 && takes('reasoning.effort')) {
    const nearest = graded.reduce((best, candidate) => (distance(candidate) < distance(best) ? candidate : best));
    reasoning.effort = nearest;
    notes.approximated(
      param,
      'reasoning_effort',
      `"${effort}" was sent as "${nearest}", the nearest effort the backend takes`,
      `${param} "${effort}" was sent as "${nearest}", the nearest effort this backend takes`,
    );
    return;
  }
  if (rank >= 0 && ladder.length > 0 && reasoning.budgetTokens === undefined && takes('reasoning.budgetTokens')) {
    const budget =
      budgetForEffort(effort, ladder) ?? ladder.reduce((best, rung) => (distance(rung.effort) < distance(best.effort) ? rung : best)).upTo;
    delete reasoning.effort;
    reasoning.budgetTokens = budget;
    request.origins['reasoning.budgetTokens'] = param;
    notes.approximated(
      param,
      'thinking budget',
      `"${effort}" was sent as a thinking budget of ${budget} tokens (the backend takes a budget, not a named effort)`,
      `${param} "${effort}" was sent as a thinking budget of ${budget} tokens`,
    );
    return;
  }
  const why = effort === 'none' ? 'thinking cannot be switched off here; ' : effort === 'adaptive' ? 'it has no adaptive thinking; ' : '';
  if (reasoning.offered) {
    const setting = effort === 'none' ? 'switch to turn thinking off' : effort === 'adaptive' ? 'adaptive thinking' : `effort "${effort}"`;
    delete reasoning.effort;
    notes.notSent(param, `backend "${name}" takes no ${setting} ${OFFERED}`);
    return;
  }
  notes.refuse(param, `${param} "${effort}" is not supported by this backend (${why}${accepted})`, () => {
    delete reasoning.effort;
  });
}

/** Why thinking the caller offered (Anthropic's `thinking`, `output_config.effort`) goes unsent rather than refused. */
const OFFERED = '(a thinking setting offered, not required: the model answers as it does without one)';

/**
 * A hard thinking budget goes as-is to a budget-style backend (it must fit
 * under max_tokens there); to an effort-only backend it becomes the effort
 * the configured ladder gives, and the translation is named in a warning.
 */
function checkReasoningBudget(
  request: NeutralRequest,
  { name }: Backend,
  { efforts, ladder: configured }: ReasoningLimits,
  takes: Takes,
  notes: PlanNotes,
): void {
  const reasoning = request.reasoning;
  const budget = reasoning?.budgetTokens;
  if (!reasoning || budget === undefined) return;
  const param = paramOf(request, 'reasoning.budgetTokens');
  if (takes('reasoning.budgetTokens')) {
    const maxTokens = request.limits.maxTokens;
    if (maxTokens !== undefined && budget >= maxTokens) {
      throw invalidRequest(
        param,
        `A thinking budget of ${budget} with max_tokens ${maxTokens} is not supported by this backend: the budget must be below max_tokens, or the answer has no room after the thought.`,
      );
    }
    return;
  }
  const ladder = configured.filter((rung) => efforts.has(rung.effort));
  if (ladder.length === 0 || !takes('reasoning.effort')) {
    if (reasoning.offered) {
      delete reasoning.budgetTokens;
      notes.notSent(param, `backend "${name}" takes no thinking budget ${OFFERED}`);
      return;
    }
    notes.refuse(
      param,
      `${param}: a thinking budget is not supported by this backend, and no effort it could map to is accepted`,
      () => delete reasoning.budgetTokens,
    );
    return;
  }
  const effort = effortForBudget(budget, ladder);
  if (reasoning.effort === undefined) {
    reasoning.effort = effort;
    request.origins['reasoning.effort'] = param;
  }
  delete reasoning.budgetTokens;
  notes.approximated(
    param,
    'reasoning_effort',
    `a budget of ${budget} thinking tokens was sent as reasoning_effort "${reasoning.effort}" (the backend takes a named effort, not a budget)`,
    `${param}: a budget of ${budget} thinking tokens was sent as reasoning_effort "${reasoning.effort}"`,
  );
}

interface ReasoningLimits {
  /** Efforts the routed model accepts. */
  efforts: ReadonlySet<string>;
  /** Budget thresholds for turning a thinking budget into an effort. */
  ladder: EffortLadder;
}

/** A route may narrow the efforts its model takes and set its own ladder; else the backend's apply. */
function reasoningLimits({ backend, route }: RouteMatch, takes: Takes): ReasoningLimits {
  // An endpoint that takes no effort (a completions endpoint) accepts none, whatever its kind's list.
  if (!takes('reasoning.effort')) return { efforts: new Set(), ladder: ladderOf(route?.effortLadder ?? backend.settings.effortLadder) };
  const efforts = route?.efforts
    ? new Set(route.efforts.filter((effort) => backend.adapter.capabilities.efforts.has(effort)))
    : backend.adapter.capabilities.efforts;
  return { efforts, ladder: ladderOf(route?.effortLadder ?? backend.settings.effortLadder) };
}

function ladderOf(configured: Record<string, number> | undefined): EffortLadder {
  if (!configured) return DEFAULT_EFFORT_LADDER;
  return Object.entries(configured)
    .map(([effort, upTo]) => ({ effort: effort as Effort, upTo }))
    .sort((a, b) => a.upTo - b.upTo);
}
