/**
 * Jest's global setup (jest.config.js): the build's ahead-of-time validators (dist/validators,
 * src/validation/compiled-validators.ts), written as `npm run build`'s last step writes them when they
 * are missing or older than what they are made from. Every test file has its own module registry, so
 * without them each file that validates a body compiles the four documents again (3-5 s of CPU a
 * file, most of `npm run test:unit` without a build); with them it loads them in milliseconds. No build
 * is needed: the step runs from src/ in a process of its own, through ts-hooks.mjs. Inside Jest the
 * modules' import of the build's validator-formats.js is mapped to src/ (jest.config.js).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { newest } from '../../scripts/build-when-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(root, 'dist/validators');
/** What they are made from: the documents, the code that compiles them, the compilers' versions. */
const sources = ['config/openapi', 'src/validation', 'package-lock.json'];

/** When the oldest of them was written (0 when there are none). */
function writtenAt() {
  const files = (statSync(outDir, { throwIfNoEntry: false }) ? readdirSync(outDir) : []).filter((name) => name.endsWith('.js'));
  return files.length === 0 ? 0 : Math.min(...files.map((name) => statSync(path.join(outDir, name)).mtimeMs));
}

export default function writeCompiledValidatorsWhenStale() {
  if (writtenAt() > Math.max(...sources.map((source) => newest(path.join(root, source))))) return;
  const hooks = pathToFileURL(path.join(root, 'test/helpers/ts-hooks.mjs')).href;
  const register = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(hooks)});`;
  const result = spawnSync(process.execPath, ['--import', register, 'src/validation/write-compiled-validators.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Only speed is lost without them: the validators are then compiled in each file, as before.
  if (result.status !== 0) console.warn(`dist/validators not written (exit ${result.status}): each test file compiles the documents`);
}
