/** Google's `models.list` and `models.get` shapes for the models the routes serve. */
import type { ListedModel } from '../dialect.js';

const METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];

/** One model as Google describes it; the proxy knows only its name and the methods it serves. */
export function geminiModel(id: string): Record<string, unknown> {
  return { name: `models/${id}`, displayName: id, supportedGenerationMethods: METHODS };
}

/** Every model at once: no `nextPageToken`. */
export function geminiModelList(models: readonly ListedModel[]): Record<string, unknown> {
  return { models: models.map(({ id }) => geminiModel(id)) };
}
