/**
 * One OpenAPIBackend per dialect document, initialised once per process. Per
 * request we call the compiled Ajv body validator directly: no routing, no
 * header parsing, nothing rebuilt.
 */
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { inlineRefs } from './inline-refs.js';
import { defaultOpenapiDir, loadOpenapiDocument, OPENAPI_DOCUMENTS, type DocumentName } from './load-openapi-document.js';
import { toValidationIssues, type SchemaError } from './to-validation-issues.js';
import type { RequestValidator, ValidationIssue } from './validation-issue.js';

export type { RequestValidator, ValidationIssue } from './validation-issue.js';

type BodyValidator = ((data: unknown) => boolean) & { errors?: readonly SchemaError[] | null };

/**
 * Ajv options: report every problem (allErrors), keep schemas and data on errors
 * for readable messages (verbose), pick a oneOf branch by its tag (discriminator).
 */
const AJV_OPTIONS = { allErrors: true, verbose: true, discriminator: true } as const;

async function buildBodyValidator(name: DocumentName, openapiDir: string): Promise<BodyValidator> {
  const { file, operationId } = OPENAPI_DOCUMENTS[name];
  const definition = inlineRefs(loadOpenapiDocument(name, openapiDir)) as unknown as Document;
  // strict: an invalid document fails start-up instead of logging a warning.
  const api = new OpenAPIBackend({ definition, strict: true, ajvOpts: AJV_OPTIONS });
  await api.init();
  // openapi-backend compiles the body as `{requestBody: body}`; find that validator among the operation's.
  const validators = api.validator.getRequestValidatorsForOperation(operationId) ?? [];
  const body = validators.find((validate) => {
    const schema = validate.schema as { properties?: Record<string, unknown> } | undefined;
    return schema?.properties?.requestBody !== undefined;
  });
  if (!body) throw new Error(`${file}: operation ${operationId} has no JSON request body schema`);
  return body as unknown as BodyValidator;
}

async function buildRequestValidator(openapiDir: string): Promise<RequestValidator> {
  const names = Object.keys(OPENAPI_DOCUMENTS) as DocumentName[];
  const built = await Promise.all(names.map((name) => buildBodyValidator(name, openapiDir)));
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
 * both documents is by far the slowest part of start-up. Sharing it is safe: the
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
