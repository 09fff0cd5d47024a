import type { Dialect } from './dialect.js';

/** "an OpenAI Responses", "a Google Gemini": a dialect's title as a sentence says it before "request". */
export function titleWithArticle({ title }: Pick<Dialect, 'title'>): string {
  return `${/^[aeiou]/i.test(title) ? 'an' : 'a'} ${title}`;
}
