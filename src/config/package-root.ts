import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The nearest folder at or above `start` with a package.json (the package's root, from src/ or dist/ alike). */
export function findPackageRoot(start: string): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
}
