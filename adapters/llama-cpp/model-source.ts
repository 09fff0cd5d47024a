/**
 * Resolves a backend's `model` setting to a local GGUF file: `builtin` (generated
 * into the cache), a path, or `hf:owner/repo/file.gguf` (downloaded into the cache
 * by node-llama-cpp's `resolveModelFile`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuiltinModel } from './builtin-model.js';
import { localModelPath, MODEL_HINT } from './model-path.js';

export { defaultCacheDir } from '../../src/config/cache-dir.js';

export interface ResolveModelOptions {
  model: string;
  cacheDir: string;
  /** Download progress, 0..1. */
  onProgress?(fraction: number): void;
  /** A download with no progress for this long fails. */
  stallMs: number;
}

export class ModelSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelSourceError';
  }
}

export async function resolveModelPath(options: ResolveModelOptions): Promise<string> {
  const { model, cacheDir } = options;
  if (model === 'builtin') return ensureBuiltinModel(cacheDir);
  if (model.startsWith('hf:')) return download(options);
  const path = localModelPath(model) as string;
  if (!existsSync(path)) throw new ModelSourceError(`model file not found: ${path} (model: takes ${MODEL_HINT})`);
  return path;
}

async function download({ model, cacheDir, onProgress, stallMs }: ResolveModelOptions): Promise<string> {
  if (!/^hf:[^/\s]+\/[^/\s]+(\/.+)?$/.test(model)) {
    throw new ModelSourceError(`Invalid Hugging Face model "${model}": expected hf:owner/repo/file.gguf`);
  }
  const { resolveModelFile } = await import('node-llama-cpp');
  const directory = join(cacheDir, 'models');
  try {
    return await resolveModelFile(model, { directory, download: false, cli: false });
  } catch {
    // not downloaded yet
  }
  await checkReachable('https://huggingface.co/', stallMs, model);
  // node-llama-cpp 3.21.1's downloader can wait forever on a failed connection
  // (its promise never settles and ignores `signal`), so a stall timer races it.
  let timer: NodeJS.Timeout | undefined;
  let rejectStall: (error: Error) => void = () => {};
  const stalled = new Promise<never>((_, reject) => (rejectStall = reject));
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => rejectStall(new ModelSourceError(`Could not download ${model}: no progress for ${stallMs} ms`)), stallMs);
  };
  arm();
  try {
    const downloading = resolveModelFile(model, {
      directory,
      cli: false,
      onProgress: ({ totalSize, downloadedSize }) => {
        arm();
        if (totalSize > 0) onProgress?.(downloadedSize / totalSize);
      },
    });
    return await Promise.race([downloading, stalled]);
  } catch (error) {
    if (error instanceof ModelSourceError) throw error;
    throw new ModelSourceError(`Could not download ${model}: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Fails fast, with the network's own reason, when the host cannot be reached at all. */
async function checkReachable(url: string, timeoutMs: number, model: string): Promise<void> {
  try {
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new ModelSourceError(`Could not download ${model}: ${new URL(url).host} is unreachable (${reason})`, { cause: error });
  }
}
