/** Why a file could not be read, in words: for the one-line messages of the config loader and the commands. */

/**
 * @example fileProblem(Object.assign(new Error(), { code: 'ENOENT' })) // 'no such file'
 */
export function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'a directory, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'not readable (permission denied)';
  return `cannot be read (${code ?? (error as Error)?.message ?? String(error)})`;
}
