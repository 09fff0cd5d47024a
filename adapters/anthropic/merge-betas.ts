/**
 * The `anthropic-beta` header of one request: the backend's own betas (its
 * `betas`, or an `anthropic-beta` under `headers`) and those the caller sent
 * (Claude Code sends `context-management-2025-06-27` with `context_management`),
 * each once, the backend's first. Without the caller's, the backend's header goes
 * as it is.
 */

/**
 * @example mergeBetas('context-management-2025-06-27', ['claude-code-20250219', 'context-management-2025-06-27'])
 * // {'anthropic-beta': 'context-management-2025-06-27,claude-code-20250219'}
 */
export function mergeBetas(configured: string | undefined, asked: readonly string[] | undefined): Record<string, string> | undefined {
  if (!asked?.length) return undefined;
  const own = (configured ?? '').split(',').map((beta) => beta.trim());
  const betas = [...new Set([...own, ...asked].filter((beta) => beta !== ''))];
  return { 'anthropic-beta': betas.join(',') };
}
