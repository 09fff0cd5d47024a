/**
 * One dialect document's request-body validator, compiled by openapi-backend
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
 * Ajv options: report every problem (allErrors), keep schemas and data on errors
 * for readable messages (verbose), pick a oneOf branch by its tag (discriminator).
 */
export const AJV_OPTIONS = { allErrors: true, verbose: true, discriminator: true } as const;

/**
 * The body validator of the document's operation (OPENAPI_DOCUMENTS), or of another operation
 * in the same document (`countMessageTokens` in the Messages document).
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
