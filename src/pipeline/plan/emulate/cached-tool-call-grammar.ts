/**
 * Tool-call grammars kept by content: an agent sends the same dozen tool
 * schemas on every turn, and building their grammar (tool-call-grammar.ts)
 * costs several times reading them. The key is what the grammar is made of
 * (names, parameters, input grammars; not the descriptions, half an agent's
 * bytes) as JSON, a fraction of the build. Only grammars built within the
 * budget are kept, and a kept one larger than the budget of the moment is
 * built again, so that it fails as it would have. A caller sending a new tool
 * set each time only ever costs the build it would have cost anyway.
 */
import { DEFAULT_LIMITS } from '../../../config/settings.js';
import { BoundedCache } from '../../../model/bounded-cache.js';
import { toolCallGrammar, type GrammarTool, type ToolCallGrammarOptions } from './tool-call-grammar.js';

/** At most 128 grammars and 8 Mi characters of keys and grammars (16 MB at most). */
export const grammarCache = new BoundedCache({ entries: 128, chars: 8 * 2 ** 20 });

/** The key of a tool set: what its grammar is built from. */
export const grammarKey = (tools: readonly GrammarTool[], single: boolean): string =>
  `${single ? 'single' : 'many'}:${JSON.stringify(tools.map(({ name, parameters, inputGrammar }) => [name, parameters, inputGrammar]))}`;

/** toolCallGrammar's grammar, built once per distinct tool set and `single`. */
export function cachedToolCallGrammar(tools: readonly GrammarTool[], options: ToolCallGrammarOptions): string {
  const key = grammarKey(tools, options.single);
  const kept = grammarCache.get(key);
  if (kept !== undefined && Buffer.byteLength(kept) <= (options.budget?.bytes ?? DEFAULT_LIMITS.grammarBytes)) return kept;
  const grammar = toolCallGrammar(tools, options);
  grammarCache.set(key, grammar);
  return grammar;
}
