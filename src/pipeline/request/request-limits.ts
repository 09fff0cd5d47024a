/**
 * The budgets a parsed request is held to before any work starts (`limits.*`):
 * a prompt batch and the choices it asks for each become upstream requests
 * where the backend cannot take them whole, so their count is bounded here.
 */
import type { ProxyLimits } from '../../config/settings.js';
import { limitExceeded } from '../../errors/catalogue.js';
import { countChoices, countPrompts } from '../../model/prompt.js';
import type { NeutralRequest } from '../../model/request.js';

export function checkRequestLimits(request: NeutralRequest, limits: Pick<ProxyLimits, 'promptBatch' | 'choices'>): void {
  const prompts = countPrompts(request.prompt);
  if (prompts > limits.promptBatch) {
    throw limitExceeded(
      'prompt',
      `prompt holds ${prompts} prompts; at most ${limits.promptBatch} are taken in one request`,
      'limits.promptBatch',
    );
  }
  const choices = countChoices(request);
  if (choices > limits.choices) {
    const param = request.origins.choices ?? 'n';
    const asked =
      prompts > 1
        ? `n ${request.choices} for each of ${prompts} prompts asks for ${choices} choices`
        : `${param} ${choices} asks for ${choices} choices`;
    throw limitExceeded(param, `${asked}; at most ${limits.choices} are answered in one request`, 'limits.choices');
  }
}
