/**
 * Where a `model:` setting that names a file points: relative paths are the
 * directory the proxy runs in, `~/` is the home directory. `builtin` and
 * `hf:` models are not files yet (they are made or downloaded on start).
 */
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';

/** What `model:` takes, for messages. */
export const MODEL_HINT = "a .gguf file's path, relative to the directory the proxy runs in; or builtin; or hf:owner/repo/file.gguf";

/**
 * The file a `model:` setting names, or undefined for `builtin` and `hf:...`.
 * @example localModelPath('~/models/m.gguf') // '/home/me/models/m.gguf'
 */
export function localModelPath(model: string): string | undefined {
  if (model === 'builtin' || model.startsWith('hf:')) return undefined;
  return isAbsolute(model) ? model : resolve(model.replace(/^~(?=\/)/, homedir()));
}
