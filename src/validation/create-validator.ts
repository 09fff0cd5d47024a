/**
 * One OpenAPIBackend per dialect document, initialised once at start-up. Per
 * request we call the compiled Ajv body validator directly: no routing, no
 * header parsing, nothing rebuilt.
 */
import { OpenAPIBackend, type Document } from 'openapi-backend';
import type { Endpoint } from '../model/request.js';
import { inlineRefs } from './inline-refs.js';
import { defaultOpenapiDir, loadOpenapiDocument, OPENAPI_DOCUMENTS } from './load-openapi-document.js';
import { toValidationIssues, type SchemaError } from './to-validation-issues.js';
import type { RequestValidator, ValidationIssue } from './validation-issue.js';

export type { RequestValidator, ValidationIssue } from './validation-issue.js';

type BodyValidator = ((data: unknown) => boolean) & { errors?: readonly SchemaError[] | null };

/**
 * Ajv options: report every problem (allErrors), keep schemas and data on errors
 * for readable messages (verbose), pick a oneOf branch by its tag (discriminator).
 */
const AJV_OPTIONS = { allErrors: true, verbose: true, discriminator: true } as const;

async function buildBodyValidator(endpoint: Endpoint, openapiDir: string): Promise<BodyValidator> {
  const { file, operationId } = OPENAPI_DOCUMENTS[endpoint];
  const definition = inlineRefs(loadOpenapiDocument(endpoint, openapiDir)) as unknown as Document;
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

/**
 * Builds the request validator for both dialects from our own OpenAPI documents.
 * Call once at start-up; `validate` is synchronous and cheap (a few microseconds).
 *
 * @example
 * const validator = await createRequestValidator();
 * const issues = validator.validate('chat', body);
 * if (issues.length > 0) throw invalidRequest(issues[0].param, issues[0].message);
 */
export async function createRequestValidator(options: { openapiDir?: string } = {}): Promise<RequestValidator> {
  const openapiDir = options.openapiDir ?? defaultOpenapiDir();
  const [chat, text] = await Promise.all([buildBodyValidator('chat', openapiDir), buildBodyValidator('text', openapiDir)]);
  const validators: Readonly<Record<Endpoint, BodyValidator>> = { chat, text };
  return {
    validate(endpoint: Endpoint, body: unknown): ValidationIssue[] {
      const validate = validators[endpoint];
      if (!validate) throw new TypeError(`Unknown endpoint: ${String(endpoint)}`);
      if (validate({ requestBody: body })) return [];
      return toValidationIssues(validate.errors ?? [], body);
    },
  };
}
