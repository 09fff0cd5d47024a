/** Where the proxy keeps what it makes once and reuses (downloaded and built-in models, its sealing key). */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$DIALECT_PROXY_CACHE`, else `~/.cache/dialect-proxy`. */
export function defaultCacheDir(): string {
  return process.env.DIALECT_PROXY_CACHE || join(homedir(), '.cache', 'dialect-proxy');
}
