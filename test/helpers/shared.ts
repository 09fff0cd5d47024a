/**
 * ../shared (reference specs, seeds, GGUF models, llama.cpp captures) sits next
 * to the repository. Tests that need it skip where it is absent, except in CI,
 * which always has it: there a missing folder fails the run instead of
 * quietly skipping.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const sharedDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared');

/** A path inside ../shared. */
export function sharedPath(...parts: string[]): string {
  return path.join(sharedDir, ...parts);
}

/** `describe` when every path exists; `describe.skip` where they are absent, outside CI. */
export function describeWithShared(...paths: string[]): jest.Describe {
  const missing = paths.filter((file) => !existsSync(file));
  if (missing.length === 0) return describe;
  if (process.env.CI) throw new Error(`CI must have ../shared, but these are missing: ${missing.join(', ')}`);
  return describe.skip;
}
