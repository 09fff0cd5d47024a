export { createRequestValidator } from './create-validator.js';
export { defaultOpenapiDir, loadOpenapiDocument, OPENAPI_DOCUMENTS } from './load-openapi-document.js';
export type { RequestValidator, ValidationIssue } from './validation-issue.js';
