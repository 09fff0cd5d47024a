/**
 * What a plan changed or refused, kept as it plans: notes (data, for the
 * translation report and the field plan) and warnings (the same in words, for
 * `x-dialect-warnings`). A refusal throws, unless the backend drops what it
 * cannot take or the plan is collecting every refusal for a report.
 */
import { unsupportedParameter, type ProxyError } from '../../errors/proxy-error.js';

/** A backend table's reason that says what to set (`set \`jinja: true\``): then it, not dropUnsupported, is the fix. */
export const OWN_FIX = /\bset `/;

export interface PlanNote {
  /** `refused`: the backend cannot take it (a 400, or a drop under dropUnsupported); `not-sent`: a soft field left out; `approximated`: sent in another, less exact form. */
  kind: 'refused' | 'not-sent' | 'approximated';
  /** The caller's wire field. */
  param: string;
  /** Why, in the backend table's words where it has some. */
  reason: string;
  /** The wire field it went out as (`approximated`). */
  to?: string;
}

/** The backend a plan is for, as its refusals name it. */
export interface PlannedFor {
  name: string;
  settings: { kind: string; dropUnsupported?: boolean };
}

export class PlanNotes {
  readonly notes: PlanNote[] = [];
  /** The first refusal, when collecting: the error a caller gets. */
  refusal: ProxyError | undefined;

  /** `warnings`: the plan's list, which starts with the parse's. `collect`: refusals are noted and dropped, none thrown (the translation report). */
  constructor(
    readonly warnings: string[],
    private readonly backend: PlannedFor,
    private readonly collect = false,
  ) {}

  /** A 400 naming the field, or with `dropUnsupported` the drop and a warning. `reason` is the note's, when it says more than `why`. */
  refuse(param: string, why: string, drop: () => void, reason = why): void {
    const { name, settings } = this.backend;
    if (settings.dropUnsupported) {
      this.notes.push({ kind: 'refused', param, reason });
      this.warnings.push(`${param} dropped: ${why}`);
      drop();
      return;
    }
    // The refusal names the setting that would drop the field instead (inside the parenthesis, which the fate table leaves out),
    // unless its reason names a fix of its own: one fix for one refusal, in every report of it.
    this.forbid(
      unsupportedParameter(
        param,
        OWN_FIX.test(why)
          ? `${why} (backend "${name}", kind ${settings.kind}).`
          : `${why} (backend "${name}", kind ${settings.kind}; set dropUnsupported: true on the backend to drop it with a warning instead).`,
      ),
      drop,
      reason,
    );
  }

  /** A refusal no setting drops (what the caller forces): `error` as the caller gets it. */
  forbid(error: ProxyError, drop: () => void, reason = error.message): void {
    this.notes.push({ kind: 'refused', param: error.param ?? '(request)', reason });
    if (!this.collect) throw error;
    this.refusal ??= error;
    drop();
  }

  /** A soft field the backend has no place for: left out, never refused. */
  notSent(param: string, reason: string): void {
    this.notes.push({ kind: 'not-sent', param, reason });
    this.warnings.push(`${param} not sent: ${reason}`);
  }

  /** Sent in another, less exact form (`to`: the wire field it went out as). */
  approximated(param: string, to: string, reason: string, warning: string): void {
    this.notes.push({ kind: 'approximated', param, to, reason });
    this.warnings.push(warning);
  }
}
