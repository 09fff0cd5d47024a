/**
 * One request-body validator per dialect document, built once per process:
 * the build's ahead-of-time modules (compiled-validators.ts) when they match the
 * document, else compiled by openapi-backend now. Per request we call it
 * directly: no routing, no header parsing, nothing rebuilt.
 */
import type { BodyValidators } from './compile-body-validator.js';
import { loadCompiledValidator } from './compiled-validators.js';
import { countValuesUpTo } from './count-values-up-to.js';
import { defaultOpenapiDir, OPENAPI_DOCUMENTS, type DocumentName } from './load-openapi-document.js';
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

/** The build's compiled validators when they match the document; else openapi-backend compiles them now. */
async function bodyValidators(name: DocumentName, openapiDir: string): Promise<BodyValidators> {
  const [allErrors, firstError] = await Promise.all([
    loadCompiledValidator(name, openapiDir, 'allErrors'),
    loadCompiledValidator(name, openapiDir, 'firstError'),
  ]);
  if (allErrors && firstError) return { allErrors, firstError };
  const { compileBodyValidators } = await import('./compile-body-validator.js');
  return compileBodyValidators(name, openapiDir);
}

async function buildRequestValidator(openapiDir: string): Promise<RequestValidator> {
  const names = Object.keys(OPENAPI_DOCUMENTS) as DocumentName[];
  const built = await Promise.all(names.map((name) => bodyValidators(name, openapiDir)));
  const validators = Object.fromEntries(names.map((name, i) => [name, built[i]])) as Readonly<Record<DocumentName, BodyValidators>>;
  return Object.freeze({
    validate(document: DocumentName, body: unknown): ValidationIssue[] {
      const pair = validators[document];
      if (!pair) throw new TypeError(`Unknown document: ${String(document)}`);
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
 * The validator for the shipped documents, compiled once per process: every
 * runtime (each server, each translate() call) needs the same one, and compiling
 * the documents (when they changed since the build) is the slowest part of start-up. Sharing it is safe: the
 * object is frozen, the compiled Ajv functions never change after init, and
 * `validate` is synchronous, so the `errors` Ajv leaves on a function are read
 * before any other call can overwrite them.
 */
let shipped: Promise<RequestValidator> | undefined;

/**
 * The request validator for both dialects, from our own OpenAPI documents.
 * `validate` is synchronous and cheap (a few microseconds). Without `openapiDir`
 * the shared, compiled-once validator is returned; an explicit `openapiDir` is
 * compiled afresh on every call, since such a directory may change between calls
 * (the shipped one does not).
 *
 * @example
 * const validator = await createRequestValidator();
 * const issues = validator.validate('chat', body);
 * if (issues.length > 0) throw invalidRequest(issues[0].param, issues[0].message);
 */
export async function createRequestValidator(options: { openapiDir?: string } = {}): Promise<RequestValidator> {
  if (options.openapiDir !== undefined) return buildRequestValidator(options.openapiDir);
  // A failed build is not kept, so a later call tries again rather than replaying the error.
  shipped ??= buildRequestValidator(defaultOpenapiDir()).catch((error: unknown) => {
    shipped = undefined;
    throw error;
  });
  return shipped;
}
