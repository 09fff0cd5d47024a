/**
 * What both directions of a move between OpenAI's two APIs share
 * (chat-to-responses.ts, responses-to-chat.ts): the list of changes, in the
 * shape of the translation report's (pipeline/translation-report.ts), and a
 * table of one rule per wire field run over a body.
 */
import type { Change } from '../../pipeline/report/translation-report.js';
import { isSet } from '../../model/is-set.js';

export type Wire = Record<string, unknown>;

export interface Migration {
  /** The request in the other API. */
  body: Record<string, unknown>;
  /** Every change, what is lost first (as the translation report orders them). */
  changes: Change[];
}

/** lossless: only names and forms change; lossy: something is dropped or approximated. */
export type MigrationVerdict = 'lossless' | 'lossy';

export function migrationVerdict(changes: readonly Change[]): MigrationVerdict {
  return changes.some((change) => change.lossy) ? 'lossy' : 'lossless';
}

/** The Responses API asks for logprobs by naming this output in `include`. */
export const LOGPROBS_INCLUDE = 'message.output_text.logprobs';
/** The smallest `max_output_tokens` the Responses API takes. */
export const MIN_OUTPUT_TOKENS = 16;

/** `messages[3].content[0]` -> `messages[*].content[*]`. */
export const pattern = (path: string) => path.replace(/\[\d+\]/g, '[*]');

/** Paths of one pattern as one: `[*]` where their indices differ (`messages[*].content[0]`). */
export function commonPath(paths: readonly string[]): string {
  const split = (path: string) => path.split(/(\[\d+\])/);
  const [first, ...rest] = paths.map(split);
  return first.map((piece, i) => (rest.every((other) => other[i] === piece) ? piece : '[*]')).join('');
}

/**
 * The changes of one migration. The same change at several places (every
 * text part, every tool message) is listed once, under `[*]`.
 */
export class ChangeList {
  private readonly list: Change[] = [];

  renamed(field: string, to: string, reason: string): void {
    this.list.push({ field, action: 'renamed', to, lossy: false, reason });
  }

  converted(field: string, to: string | undefined, reason: string, lossy = false): void {
    this.list.push({ field, action: 'converted', ...(to !== undefined && to !== field ? { to } : {}), lossy, reason });
  }

  dropped(field: string, reason: string, lossy = true): void {
    this.list.push({ field, action: 'dropped', lossy, reason });
  }

  result(): Change[] {
    const groups = new Map<string, Change[]>();
    for (const change of this.list) {
      const key = `${pattern(change.field)}\u0000${change.action}\u0000${pattern(change.to ?? '')}\u0000${change.reason}`;
      const group = groups.get(key);
      if (group) group.push(change);
      else groups.set(key, [change]);
    }
    const merged = [...groups.values()].map((group) => {
      const [first] = group;
      if (group.length === 1) return first;
      const to = first.to === undefined ? undefined : commonPath(group.map((change) => change.to as string));
      const field = commonPath(group.map((change) => change.field));
      return {
        field,
        action: first.action,
        ...(to !== undefined ? { to } : {}),
        lossy: group.some((change) => change.lossy),
        reason: first.reason,
      };
    });
    // What is lost first (dropped, then approximated), then the rest, then what is left out at no loss; each in the order found.
    const rank = (change: Change) => (change.action === 'dropped' ? (change.lossy ? 0 : 3) : change.lossy ? 1 : 2);
    return merged
      .map((change, i) => ({ change, i }))
      .sort((a, b) => rank(a.change) - rank(b.change) || a.i - b.i)
      .map(({ change }) => change);
  }
}

/** One field's rule: reads the source body, writes the target body, says what changed. */
export interface Context {
  source: Readonly<Wire>;
  target: Wire;
  changes: ChangeList;
  /** Rules that read several fields at once (logprobs, reasoning) run once. */
  done: Set<string>;
}

export type Rule = (value: unknown, field: string, context: Context) => void;

/** The same name and value in both APIs. */
export const same: Rule = (value, field, { target }) => {
  target[field] = value;
};

/** No counterpart: not sent. */
export const drop =
  (reason: string, lossy = true): Rule =>
  (_value, field, { changes }) =>
    changes.dropped(field, reason, lossy);

/** A Fireworks extension of chat. */
export const fireworks = (what: string): Rule => drop(`${what}: a Fireworks extension of chat; the Responses API has none`);

/** Runs `rule` once for a group of fields read together. */
export const once =
  (group: string, rule: (context: Context) => void): Rule =>
  (_value, _field, context) => {
    if (context.done.has(group)) return;
    context.done.add(group);
    rule(context);
  };

/** The body in a readable order: these keys first, then the rest as written. */
export function ordered(body: Wire, first: readonly string[]): Wire {
  const out: Wire = {};
  for (const key of first) if (key in body) out[key] = body[key];
  for (const [key, value] of Object.entries(body)) if (!(key in out)) out[key] = value;
  return out;
}

export function migrate<Field extends string>(
  body: Readonly<Wire>,
  rules: Readonly<Record<Field, Rule>>,
  first: readonly string[],
  api: string,
): Migration {
  const context: Context = { source: body, target: {}, changes: new ChangeList(), done: new Set() };
  for (const [field, value] of Object.entries(body)) {
    if (!isSet(value)) continue;
    const rule = (rules as Readonly<Record<string, Rule | undefined>>)[field];
    if (rule) rule(value, field, context);
    else context.changes.dropped(field, `not a field of the ${api}`);
  }
  return { body: ordered(context.target, first), changes: context.changes.result() };
}
