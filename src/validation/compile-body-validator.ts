/**
 * One dialect document's request-body validators, compiled by openapi-backend
 * (its Ajv, its formats): at run time for a document directory of the user's,
 * and at build time as the source of the ahead-of-time validators
 * (compiled-validators.ts), which then load without Ajv or openapi-backend.
 */
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { inlineRefs } from './inline-refs.js';
import { loadOpenapiDocument, OPENAPI_DOCUMENTS, type DocumentName } from './load-openapi-document.js';
import type { SchemaError } from './to-validation-issues.js';

export type BodyValidator = ((data: unknown) => boolean) & { errors?: readonly SchemaError[] | null; schema?: unknown };

/**
 * Two compilations of one schema. `firstError` stops at a body's first problem:
 * it runs on every request, and its cost does not grow with the errors a body
 * holds. `allErrors` reports every problem, for the message of a body that
 * failed (Ajv builds an error per failing element of every union branch: over
 * a large array, millions).
 */
export interface BodyValidators {
  firstError: BodyValidator;
  allErrors: BodyValidator;
}

/**
 * Ajv options: report every problem (allErrors), keep schemas and data on errors
 * for readable messages (verbose), pick a oneOf branch by its tag (discriminator).
 */
export const AJV_OPTIONS = { allErrors: true, verbose: true, discriminator: true } as const;

/** The same, stopping at the first problem. */
export const FIRST_ERROR_OPTIONS = { ...AJV_OPTIONS, allErrors: false } as const;

/**
 * The body validator of the document's operation (OPENAPI_DOCUMENTS), or of another operation
 * in the same document (`countMessageTokens` in the Messages document), reporting every problem.
 */
export async function compileBodyValidator(
  name: DocumentName,
  openapiDir: string,
  operationId: string = OPENAPI_DOCUMENTS[name].operationId,
): Promise<BodyValidator> {
  const { file } = OPENAPI_DOCUMENTS[name];
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

/** Both validators of the document's operation: openapi-backend's, and the same schema compiled again to stop at the first problem. */
export async function compileBodyValidators(name: DocumentName, openapiDir: string): Promise<BodyValidators> {
  const allErrors = await compileBodyValidator(name, openapiDir);
  const ajv = await ajvLikeOpenapiBackend(FIRST_ERROR_OPTIONS);
  return { allErrors, firstError: ajv.compile(allErrors.schema as object) as unknown as BodyValidator };
}

/**
 * An Ajv set up as openapi-backend sets up its own (strict off, its formats) with `options`;
 * `code` for the build's standalone source.
 */
export async function ajvLikeOpenapiBackend(options: typeof AJV_OPTIONS | typeof FIRST_ERROR_OPTIONS, code?: object) {
  // Loaded here, not at the top: the run-time path loads no compiler unless a document changed since the build.
  const [ajvModule, { validatorFormats }] = await Promise.all([import('ajv'), import('./validator-formats.js')]);
  // A CommonJS module: its exports object is the default import, with the class again as `default`.
  const { default: Ajv } = ajvModule.default;
  const ajv = new Ajv({ strict: false, ...options, ...(code ? { code } : {}) });
  for (const [format, definition] of Object.entries(validatorFormats)) ajv.addFormat(format, definition as never);
  return ajv;
}
