/** Which template renders chat into a prompt for a route, in a translation report's words. */
import type { RouteMatch } from '../plan/route-table.js';

export function templateOf({ backend, route }: RouteMatch): string {
  const configured = route?.chatTemplate ?? backend.settings.chatTemplate;
  if (!configured && !backend.adapter.chatTemplate && backend.adapter.chatTemplatePending)
    return "the model's own chat template (read from the model when it loads; ChatML if it has none)";
  if (configured === 'chatml' || (!configured && !backend.adapter.chatTemplate)) return 'the ChatML chat template';
  return configured ? 'the configured chat template' : "the model's own chat template";
}
