/** The plan's note when the chat template that renders a prompt is a guess (plan.ts). */
import type { ModelFormat } from '../../config/settings.js';
import type { NeutralRequest } from '../../model/request.js';
import type { PlanNotes } from './plan-notes.js';
import type { Backend } from './route-table.js';

/**
 * Chat rendered into a prompt with ChatML because nothing says which template the model was trained
 * on (no `chatTemplate` configured, none from the model's own metadata): a guess, which a model
 * trained on another template reads poorly, so it is a lossy change and a warning, never "lossless".
 * A local model not loaded yet (the offline commands) may still bring its own: not a guess yet.
 */
export function noteGuessedTemplate(request: NeutralRequest, { adapter, name }: Backend, format: ModelFormat, notes: PlanNotes): void {
  if (format.chatTemplate || adapter.chatTemplate || adapter.chatTemplatePending) return;
  const param = request.origins.messages ?? 'messages';
  notes.approximated(
    param,
    'prompt',
    `rendered into one prompt with the ChatML chat template, a guess: backend "${name}" has no chatTemplate configured and its model states none; set chatTemplate to the model's own`,
    `${param} was sent as a prompt rendered with the ChatML chat template, a guess (no chatTemplate configured for backend "${name}", none from the model)`,
  );
}
