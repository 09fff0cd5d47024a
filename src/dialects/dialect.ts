/**
 * A dialect turns wire JSON into the neutral request, and neutral results and
 * stream events back into wire JSON. Dialects are pure: no I/O, but through
 * the state hooks a stateful dialect is given (dialect-state.ts).
 */
import type { ProxyError } from '../errors/proxy-error.js';
import type { Endpoint, NeutralRequest } from '../model/request.js';
import type { NeutralResult } from '../model/result.js';
import type { SseFraming } from '../streaming/encode-sse.js';
import type { DialectState } from './dialect-state.js';
import type { DialectContext } from './dialect-context.js';
import type { DialectWire } from './dialect-wire.js';
import type { FieldTable } from './field-table.js';
import type { StreamSerializer } from './stream-serializer.js';

export interface Dialect {
  readonly name: 'openai-chat' | 'fireworks-completions' | 'openai-responses' | 'anthropic-messages';
  /** The path it serves (`POST` only). */
  readonly path: string;
  /** The neutral endpoint its requests become. */
  readonly endpoint: Endpoint;
  /** Its OpenAPI document (src/validation/load-openapi-document.ts). */
  readonly document: Endpoint | 'responses' | 'messages';
  /** OpenAI chat and Fireworks send `data:` lines and `[DONE]`; the Responses API names each event. */
  readonly sse: SseFraming;
  /** Every wire request field with its fate. */
  readonly fields: FieldTable<string>;
  /** What its own fields (the conversation, stream options) become upstream, for the translation report. */
  readonly wire: DialectWire;
  /**
   * Body (already validated against our OpenAPI document) -> neutral request.
   * Headers carry the session-affinity keys (`x-session-affinity`, `x-multi-turn-session-id`).
   */
  parseRequest(
    body: Record<string, unknown>,
    headers?: Readonly<Record<string, string | string[] | undefined>>,
    context?: DialectContext,
  ): NeutralRequest;
  serializeResult(result: NeutralResult, request: NeutralRequest, context?: DialectContext): Record<string, unknown>;
  /** A stream's serializer: neutral events -> wire chunk objects, one synchronous step per event (stream-serializer.ts). */
  streamSerializer(request: NeutralRequest, context?: DialectContext): StreamSerializer;
  /** The error body in this dialect (the completions dialect adds Fireworks' `detail`). */
  errorBody(error: ProxyError): Record<string, unknown>;
  /** The HTTP status of an error, where this dialect's differs from the error's own (Anthropic answers a busy backend with 529). */
  errorStatus?(error: ProxyError): number;
  /** A header that carries the request id besides `x-request-id` (Anthropic's `request-id`). */
  readonly requestIdHeader?: string;
  /** Where this dialect's callers count a request's tokens without generating (`/v1/messages/count_tokens`). */
  readonly countTokensPath?: string;
  /**
   * `GET /v1/models` in this dialect's shape, for callers that send `header` (Anthropic's clients send
   * `anthropic-version`); others get OpenAI's list. Errors there are this dialect's too.
   */
  readonly modelList?: { header: string; body(models: readonly ListedModel[]): Record<string, unknown> };
  /** The frames that end a stream the proxy itself cannot finish (its own failure after the headers went out). */
  streamFailure(error: ProxyError): string;
  /** The HTTP status this dialect uses for request validation failures (chat 400, completions 422). */
  readonly validationStatus: number;
  /**
   * Endpoints beside `path` that take this dialect's body and answer in a shape of their own (the Responses
   * API's `/v1/responses/compact`), served like it.
   */
  readonly variants?: readonly Dialect[];
  /** A dialect with state of its own (the Responses API's stored responses): the hooks the pipeline calls around its requests. */
  readonly state?: DialectState;
}

export type { DialectContext } from './dialect-context.js';

/** A model the routes serve, and the backend that serves it. */
export interface ListedModel {
  id: string;
  backend: string;
}
