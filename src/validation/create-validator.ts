/**
 * One request-body validator per dialect document, built once per process:
 * the build's ahead-of-time modules (compiled-validators.ts) when they match the
 * document, else compiled by openapi-backend now. Per request we call it
 * directly: no routing, no header parsing, nothing rebuilt.
 */
import type { BodyValidators } from './compile-body-validator.js';
import { compiledValidatorFile, importValidator } from './compiled-validators.js';
import { countValuesUpTo } from './count-values-up-to.js';
import { defaultOpenapiDir, isDocumentName, OPENAPI_DOCUMENTS, type DocumentName } from './load-openapi-document.js';
import { toValidationIssues } from './to-validation-issues.js';
import type { RequestValidator, ValidationIssue } from './validation-issue.js';

export type { RequestValidator, ValidationIssue } from './validation-issue.js';

/**
 * The most values a failed body may hold for its message to list every problem.
 * Past it the first problem is reported alone: reporting all of them costs an
 * error per failing element of every union branch (a bad item in a prompt of
 * 5 million token ids took 30 s and gigabytes), which no caller reads.
 */
const ALL_ERRORS_UP_TO_VALUES = 1_000;

/** A document's validators: the build's modules when they match it, else compiled by openapi-backend now. */
async function bodyValidators(name: DocumentName, openapiDir: string, compiled?: CompiledFiles): Promise<BodyValidators> {
  if (compiled) {
    const [allErrors, firstError] = await Promise.all([importValidator(compiled.allErrors), importValidator(compiled.firstError)]);
    return { allErrors, firstError };
  }
  const { compileBodyValidators } = await import('./compile-body-validator.js');
  return compileBodyValidators(name, openapiDir);
}

type CompiledFiles = Record<keyof BodyValidators, string>;

/** The build's two modules for a document, when both were compiled from it as it is now. */
function compiledFiles(name: DocumentName, openapiDir: string): CompiledFiles | undefined {
  const allErrors = compiledValidatorFile(name, openapiDir, 'allErrors');
  const firstError = compiledValidatorFile(name, openapiDir, 'firstError');
  return allErrors && firstError ? { allErrors, firstError } : undefined;
}

/**
 * A validator that loads each document's validators when first prepared. A document the build
 * did not compile as it is now is compiled at once: a broken document fails the start, not a request.
 */
async function buildRequestValidator(openapiDir: string): Promise<RequestValidator> {
  const names = Object.keys(OPENAPI_DOCUMENTS) as DocumentName[];
  // Each module checked against its document once, here; a first request only imports it.
  const files = new Map(names.map((name) => [name, compiledFiles(name, openapiDir)]));
  const loaded = new Map<string, BodyValidators>();
  const loading = new Map<DocumentName, Promise<void>>();
  const load = (name: DocumentName) => bodyValidators(name, openapiDir, files.get(name)).then((pair) => void loaded.set(name, pair));
  await Promise.all(names.filter((name) => !files.get(name)).map(load));
  return Object.freeze({
    prepare(document: string): Promise<void> | undefined {
      if (loaded.has(document)) return undefined;
      if (!isDocumentName(document)) throw new TypeError(`Unknown document: ${document}`);
      let pending = loading.get(document);
      if (!pending) {
        // A failed load is not kept: the next request tries again.
        pending = load(document).finally(() => loading.delete(document));
        loading.set(document, pending);
      }
      return pending;
    },
    validate(document: string, body: unknown): ValidationIssue[] {
      const pair = loaded.get(document);
      if (!pair) throw new TypeError(`The validators of ${document} are not loaded: await prepare(document) first`);
      const { firstError, allErrors } = pair;
      const data = { requestBody: body };
      if (firstError(data)) return [];
      if (countValuesUpTo(body, ALL_ERRORS_UP_TO_VALUES) > ALL_ERRORS_UP_TO_VALUES)
        return toValidationIssues(firstError.errors ?? [], body);
      allErrors(data);
      return toValidationIssues(allErrors.errors ?? [], body);
    },
  });
}

/**
 * The validator for the shipped documents, made once per process: every
 * runtime (each server, each translate() call) needs the same one. Sharing it is safe: the
 * compiled Ajv functions never change after load, and `validate` is synchronous, so the
 * `errors` Ajv leaves on a function are read before any other call can overwrite them.
 */
let shipped: Promise<RequestValidator> | undefined;

/**
 * The request validator for every dialect, from our own OpenAPI documents.
 * `validate` is synchronous and cheap (a few microseconds). Without `openapiDir`
 * the shared validator is returned; an explicit `openapiDir` is compiled afresh on
 * every call, since such a directory may change between calls (the shipped one does not).
 * With `lazy` (the server's), no document is loaded until `prepare`: a dialect nobody
 * calls costs no memory (the Messages validators alone are some 3 MB of code). Without
 * it, every document is ready to `validate`.
 *
 * @example
 * const validator = await createRequestValidator();
 * const issues = validator.validate('chat', body);
 * if (issues.length > 0) throw invalidRequest(issues[0].param, issues[0].message);
 */
export async function createRequestValidator(options: { openapiDir?: string; lazy?: boolean } = {}): Promise<RequestValidator> {
  let validator: Promise<RequestValidator>;
  if (options.openapiDir !== undefined) validator = buildRequestValidator(options.openapiDir);
  else {
    // A failed build is not kept, so a later call tries again rather than replaying the error.
    shipped ??= buildRequestValidator(defaultOpenapiDir()).catch((error: unknown) => {
      shipped = undefined;
      throw error;
    });
    validator = shipped;
  }
  if (options.lazy) return validator;
  const ready = await validator;
  await Promise.all((Object.keys(OPENAPI_DOCUMENTS) as DocumentName[]).map((name) => ready.prepare(name)));
  return ready;
}
