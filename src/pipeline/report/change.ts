/** One change a translation makes to a caller's field (translation-report.ts lists them; plan-changes.ts reads most of them from the plan). */
export type ChangeAction = 'renamed' | 'converted' | 'emulated' | 'dropped' | 'rejected';

export interface Change {
  /** The caller's wire field (`top_k`, `thinking.budget_tokens`, `messages`). */
  field: string;
  action: ChangeAction;
  /** The wire field it went out as, when that is another. */
  to?: string;
  /** Something is lost or approximated (always for dropped and rejected). */
  lossy: boolean;
  reason: string;
}
