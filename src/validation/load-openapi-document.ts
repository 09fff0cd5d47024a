/**
 * Finds and reads our own OpenAPI documents (config/openapi/). The package root
 * is found by walking up from this module to the nearest package.json, so the
 * same code works from src/ (ts-jest) and from dist/src/ (compiled).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { findPackageRoot } from '../config/package-root.js';

export interface OpenapiDocumentInfo {
  file: string;
  path: string;
  operationId: string;
}

/** Which document, path and operation serve each caller dialect, by the name its `Dialect.document` gives. */
export const OPENAPI_DOCUMENTS = Object.freeze({
  chat: { file: 'openai-chat.yaml', path: '/v1/chat/completions', operationId: 'createChatCompletion' },
  text: { file: 'fireworks-completions.yaml', path: '/v1/completions', operationId: 'createCompletion' },
  responses: { file: 'openai-responses.yaml', path: '/v1/responses', operationId: 'createResponse' },
  messages: { file: 'anthropic-messages.yaml', path: '/v1/messages', operationId: 'createMessage' },
  gemini: { file: 'gemini.yaml', path: '/v1beta/models/{model}:generateContent', operationId: 'generateContent' },
} satisfies Record<string, OpenapiDocumentInfo>);

/** The documents: one per caller dialect (the chat and text ones named by the neutral endpoint they parse to). */
export type DocumentName = keyof typeof OPENAPI_DOCUMENTS;

/** Whether `name` is one of the documents (a dialect's `document` is a string: dialects do not see this list). */
export function isDocumentName(name: string): name is DocumentName {
  return Object.hasOwn(OPENAPI_DOCUMENTS, name);
}

/** `<package root>/config/openapi`. */
export function defaultOpenapiDir(): string {
  return join(findPackageRoot(dirname(fileURLToPath(import.meta.url))), 'config', 'openapi');
}

/** Reads and parses the document `name` (a fresh object each call: openapi-backend dereferences in place). */
export function loadOpenapiDocument(name: DocumentName, openapiDir: string = defaultOpenapiDir()): Record<string, unknown> {
  const file = join(openapiDir, OPENAPI_DOCUMENTS[name].file);
  const document: unknown = parse(readFileSync(file, 'utf8'));
  if (!document || typeof document !== 'object') throw new Error(`${file} is not an OpenAPI document`);
  return document as Record<string, unknown>;
}
