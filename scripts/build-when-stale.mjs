/**
 * `npm start`'s first step (scripts/start.mjs): builds only when the build is missing or older than a
 * source it is made from (src/, adapters/, config/openapi/, package.json, the tsconfigs), so a second
 * start serves at once instead of compiling for 15-25 s. Run alone with `--check`: says whether a
 * build is due (exit 1) without building.
 */
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist/src/cli.js');
const sources = ['src', 'adapters', 'config/openapi', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time under `file` (a file or a folder), in ms. */
export function newest(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(file).reduce((latest, name) => Math.max(latest, newest(path.join(file, name))), stat.mtimeMs);
}

/** Why a build is due (`no build yet`, `src changed since the last build`), or undefined when the build is fresh. */
export function buildDue() {
  const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (builtAt === 0) return 'no build yet';
  const stale = sources.find((source) => newest(path.join(root, source)) > builtAt);
  return stale && `${stale} changed since the last build`;
}

export function buildWhenStale() {
  const reason = buildDue();
  if (!reason) return;
  console.error(`${reason}: building`);
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--check')) {
  const reason = buildDue();
  if (reason) console.log(reason);
  process.exit(reason ? 1 : 0);
}
