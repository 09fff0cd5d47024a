/**
 * Ahead-of-time validators: at build time each dialect document's validators,
 * as openapi-backend builds them, are turned into plain JavaScript modules
 * (Ajv's standalone code) under `dist/validators/`: `<name>.js` reports every
 * problem, `<name>.first-error.js` stops at the first (compile-body-validator.ts).
 * Loading them costs a few megabytes and milliseconds; compiling the documents
 * at start-up costs about 50 MB of memory that the process never gives back,
 * and seconds. Each module names the hash of the document it came from: a
 * document that changed since the build is compiled at run time instead.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findPackageRoot } from '../config/package-root.js';
import type { BodyValidator, BodyValidators } from './compile-body-validator.js';
import { defaultOpenapiDir, OPENAPI_DOCUMENTS, type DocumentName } from './load-openapi-document.js';

/** Changes when the generated code would: part of every module's hash. */
const GENERATOR = 'ajv-standalone-2';

const packageRoot = () => findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export function compiledValidatorsDir(): string {
  return join(packageRoot(), 'dist', 'validators');
}

/** The hash a compiled module must carry to stand for `name` as it is now in `openapiDir`. */
function documentHash(name: DocumentName, openapiDir: string): string {
  const text = readFileSync(join(openapiDir, OPENAPI_DOCUMENTS[name].file), 'utf8');
  return createHash('sha256').update(GENERATOR).update(text).digest('hex');
}

const hashLine = (hash: string) => `// document sha256 ${hash}`;

const moduleName = (name: DocumentName, errors: keyof BodyValidators) => (errors === 'allErrors' ? `${name}.js` : `${name}.first-error.js`);

/** The build's module for `name` when it was compiled from the document as it is now; else undefined. */
export function compiledValidatorFile(
  name: DocumentName,
  openapiDir = defaultOpenapiDir(),
  errors: keyof BodyValidators = 'allErrors',
): string | undefined {
  const file = join(compiledValidatorsDir(), moduleName(name, errors));
  if (!existsSync(file)) return undefined;
  // The hash is the first line: read that much, not the module (up to 2 MB).
  const head = Buffer.alloc(200);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return head.toString('utf8').split('\n', 1)[0] === hashLine(documentHash(name, openapiDir)) ? file : undefined;
}

/** A compiled validator for `name` (by default the one reporting every problem), or undefined when there is none for the document as it is now. */
export async function loadCompiledValidator(
  name: DocumentName,
  openapiDir = defaultOpenapiDir(),
  errors: keyof BodyValidators = 'allErrors',
): Promise<BodyValidator | undefined> {
  const file = compiledValidatorFile(name, openapiDir, errors);
  return file === undefined ? undefined : importValidator(file);
}

/** The validator a compiled module (a file compiledValidatorFile found) exports. */
export async function importValidator(file: string): Promise<BodyValidator> {
  const module = (await import(pathToFileURL(file).href)) as { validate: BodyValidator };
  return module.validate;
}

/** Build step: writes `dist/validators/<name>.js` and `<name>.first-error.js` for every shipped document. */
export async function writeCompiledValidators(outDir = compiledValidatorsDir()): Promise<string[]> {
  // Build-time only: the compilers are loaded here, never on the run-time path above.
  const [ajvModule, standaloneModule, { compileBodyValidator, ajvLikeOpenapiBackend, AJV_OPTIONS, FIRST_ERROR_OPTIONS }] =
    await Promise.all([import('ajv'), import('ajv/dist/standalone/index.js'), import('./compile-body-validator.js')]);
  // CommonJS modules: their exports object is the default import, with the function again as `default`.
  const { _ } = ajvModule.default;
  const standaloneCode = standaloneModule.default.default;
  mkdirSync(outDir, { recursive: true });
  const formats = relative(outDir, join(packageRoot(), 'dist', 'src', 'validation', 'validator-formats.js'));
  const written: string[] = [];
  for (const name of Object.keys(OPENAPI_DOCUMENTS) as DocumentName[]) {
    const schema = (await compileBodyValidator(name, defaultOpenapiDir())).schema as object;
    for (const [errors, options] of [
      ['allErrors', AJV_OPTIONS],
      ['firstError', FIRST_ERROR_OPTIONS],
    ] as const) {
      // openapi-backend's own Ajv settings (strict: false, its formats) plus ours, emitting source.
      const ajv = await ajvLikeOpenapiBackend(options, { source: true, esm: true, formats: _`validatorFormats` });
      const source = standaloneCode(ajv, ajv.compile(schema));
      const file = join(outDir, moduleName(name, errors));
      writeFileSync(
        file,
        [
          hashLine(documentHash(name, defaultOpenapiDir())),
          `// Generated at build time from config/openapi/${OPENAPI_DOCUMENTS[name].file} by src/validation/compiled-validators.ts: do not edit.`,
          "import { createRequire } from 'node:module';",
          `import { validatorFormats } from '${formats.startsWith('.') ? formats : `./${formats}`}';`,
          // Ajv's standalone code reaches its run-time helpers with require, even as a module.
          'const require = createRequire(import.meta.url);',
          source.replace(/^"use strict";/, ''),
          '',
        ].join('\n'),
      );
      written.push(file);
    }
  }
  return written;
}
