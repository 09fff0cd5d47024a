/**
 * Finds the worker process's JavaScript entry. Built code (dist/) has
 * `worker-main.js` beside this module. When this module runs from TypeScript
 * sources (Jest with ts-jest, ts runners), plain node cannot load `.ts`, so
 * the worker's module graph is transpiled with the `typescript` dev dependency
 * into `node_modules/.cache/dialect-proxy/llama-worker/<content hash>/`, which
 * keeps bare imports (node-llama-cpp) resolving and is redone only when a source changes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findPackageRoot } from '../../src/config/package-root.js';

export async function resolveWorkerScript(): Promise<URL> {
  const built = new URL('./worker-main.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  const source = fileURLToPath(new URL('./worker-main.ts', import.meta.url));
  if (!existsSync(source)) throw new Error(`The llama.cpp worker script is missing next to ${fileURLToPath(import.meta.url)}`);
  return transpileWorker(source);
}

async function transpileWorker(entry: string): Promise<URL> {
  const ts = (await import('typescript')).default;
  const root = findPackageRoot(dirname(entry));
  const files = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    files.set(file, text);
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName.replace(/\.js$/, '.ts'));
      if (existsSync(target)) queue.push(target);
    }
  }
  const hash = createHash('sha256');
  for (const [file, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) hash.update(file).update('\0').update(text).update('\0');
  const outDir = join(root, 'node_modules', '.cache', 'dialect-proxy', 'llama-worker', hash.digest('hex').slice(0, 16));
  const output = (file: string) => join(outDir, relative(root, file).replace(/\.ts$/, '.js'));
  const marker = join(outDir, '.complete');
  if (!existsSync(marker)) {
    for (const [file, text] of files) {
      const { outputText } = ts.transpileModule(text, {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
      });
      mkdirSync(dirname(output(file)), { recursive: true });
      const temporary = `${output(file)}.${process.pid}.tmp`;
      writeFileSync(temporary, outputText);
      renameSync(temporary, output(file));
    }
    writeFileSync(join(outDir, 'package.json'), '{"type":"module"}\n');
    writeFileSync(marker, '');
    pruneStale(dirname(outDir), outDir);
  }
  return pathToFileURL(output(entry));
}

/** Drops builds of older sources (an hour old, so a concurrent run of other sources keeps its own). */
function pruneStale(parent: string, keep: string): void {
  for (const name of readdirSync(parent)) {
    const dir = join(parent, name);
    if (dir !== keep && Date.now() - statSync(dir).mtimeMs > 3_600_000) rmSync(dir, { recursive: true, force: true });
  }
}
