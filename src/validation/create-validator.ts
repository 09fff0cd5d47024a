/**
 * One request-body validator per dialect document, built once per process:
 * the build's ahead-of-time module (compiled-validators.ts) when it matches the
 * document, else compiled by openapi-backend now. Per request we call it
 * directly: no routing, no header parsing, nothing rebuilt.
 */
import type { BodyValidator } from './compile-body-validator.js';
import { loadCompiledValidator } from './compiled-validators.js';
import { defaultOpenapiDir, OPENAPI_DOCUMENTS, type DocumentName } from './load-openapi-document.js';
import { toValidationIssues } from './to-validation-issues.js';
import type { RequestValidator, ValidationIssue } from './validation-issue.js';

export type { RequestValidator, ValidationIssue } from './validation-issue.js';

/** The build's compiled validator when it matches the document; else openapi-backend compiles it now. */
async function bodyValidator(name: DocumentName, openapiDir: string): Promise<BodyValidator> {
  const compiled = await loadCompiledValidator(name, openapiDir);
  if (compiled) return compiled;
  const { compileBodyValidator } = await import('./compile-body-validator.js');
  return compileBodyValidator(name, openapiDir);
}

async function buildRequestValidator(openapiDir: string): Promise<RequestValidator> {
  const names = Object.keys(OPENAPI_DOCUMENTS) as DocumentName[];
  const built = await Promise.all(names.map((name) => bodyValidator(name, openapiDir)));
  const validators = Object.fromEntries(names.map((name, i) => [name, built[i]])) as Readonly<Record<DocumentName, BodyValidator>>;
  return Object.freeze({
    validate(document: DocumentName, body: unknown): ValidationIssue[] {
      const validate = validators[document];
      if (!validate) throw new TypeError(`Unknown document: ${String(document)}`);
      if (validate({ requestBody: body })) return [];
      return toValidationIssues(validate.errors ?? [], body);
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
