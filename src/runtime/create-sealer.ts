/**
 * The proxy's sealer (src/dialects/sealer.ts): under `responses.encryptionKey` when the config sets
 * one (every replica sharing the items must), else under a key made once and kept in the cache folder
 * (a restart keeps reading what it sealed), else, with no folder to keep it in, one of the process's own.
 */
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { defaultCacheDir } from '../config/cache-dir.js';
import { Sealer } from '../dialects/sealer.js';

const KEY_FILE = 'responses-key';

export function createSealer(secret: string | undefined, logger: { warn(message: string): unknown }, cacheDir = defaultCacheDir()): Sealer {
  if (secret !== undefined) return Sealer.fromSecret(secret);
  const file = join(cacheDir, KEY_FILE);
  try {
    return Sealer.fromSecret(readFileSync(file, 'utf8'));
  } catch {
    // None yet: made below.
  }
  const draft = `${file}.${process.pid}`;
  let drafted = false;
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(draft, randomBytes(32).toString('base64url'), { mode: 0o600 });
    drafted = true;
    // A link appears whole or not at all: of two processes starting at once, one's key is the key.
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      logger.warn(
        `no responses.encryptionKey and no key file at ${file} (${(error as Error).message}): reasoning and compaction items this process seals are refused after a restart`,
      );
      return Sealer.random();
    }
  } finally {
    if (drafted) rmSync(draft, { force: true });
  }
  return Sealer.fromSecret(readFileSync(file, 'utf8'));
}
