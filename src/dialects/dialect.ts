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
import type { AnyStreamSerializer } from './stream-serializer.js';

export interface Dialect {
  /** Its name in reports, logs and traces (`openai-chat`). */
  readonly name: string;
  /** What people call its API, in hints and the offline commands' reports (`OpenAI Chat Completions`). */
  readonly title: string;
  /**
   * What the offline commands' `--endpoint` (and an audited log line's `endpoint`) call it: `chat`,
   * `completions`, `messages`.
   */
  readonly shortName: string;
  /** The path it serves (`POST` only); with `route`, the pattern shown to people (`/v1beta/models/{model}:generateContent`). */
  readonly path: string;
  /**
   * A dialect whose URL carries part of the request (Gemini's model and whether it streams): the
   * dialect bound to one URL's call, instead of the fixed `path`.
   */
  readonly route?: DialectRoute;
  /** The neutral endpoint its requests become. */
  readonly endpoint: Endpoint;
  /** Its OpenAPI document: a name in `OPENAPI_DOCUMENTS` (src/validation/load-openapi-document.ts). */
  readonly document: string;
  /** OpenAI chat and Fireworks send `data:` lines and `[DONE]`; the Responses API names each event. */
  readonly sse: SseFraming;
  /**
   * The body with the field names its document is written in, before it is validated (Gemini's proto
   * names, `system_instruction`, as `systemInstruction`: Google takes both); absent where a body has one form.
   */
  normalizeBody?(body: Record<string, unknown>): Record<string, unknown>;
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
  streamSerializer(request: NeutralRequest, context?: DialectContext): AnyStreamSerializer;
  /** The error body in this dialect (the completions dialect adds Fireworks' `detail`). */
  errorBody(error: ProxyError): Record<string, unknown>;
  /** The HTTP status of an error, where this dialect's differs from the error's own (Anthropic answers a busy backend with 529). */
  errorStatus?(error: ProxyError): number;
  /** A header that carries the request id besides `x-request-id` (Anthropic's `request-id`). */
  readonly requestIdHeader?: string;
  /** Where this dialect's callers count a request's tokens without generating (`/v1/messages/count_tokens`). */
  readonly countTokensPath?: string;
  /**
   * A token count in this dialect's shape, where it is not Anthropic's: the create body the count
   * stands for (refusing what a count does not take), and the answer.
   */
  readonly countTokens?: {
    createBody(body: Record<string, unknown>): Record<string, unknown>;
    answer(tokens: number): Record<string, unknown>;
  };
  /** Where the caller's key may come besides `Authorization` and `x-api-key` (Gemini's `x-goog-api-key` and `?key=`). */
  readonly apiKeyFrom?: ApiKeySources;
  /**
   * `GET /v1/models` in this dialect's shape, for callers that send `header` (Anthropic's clients send
   * `anthropic-version`); others get OpenAI's list. Errors there are this dialect's too.
   */
  readonly modelList?: {
    header: string;
    body(models: readonly ListedModel[]): Record<string, unknown>;
    /** One model described, for a dialect with a `route` (`GET /v1beta/models/{model}`, under its prefixes). */
    model?(id: string): Record<string, unknown>;
  };
  /**
   * How surely a body sent without its dialect (a file for `translate`, a body at another dialect's path) is
   * this dialect's: 0 not, 1 by a field its requests have (`messages`), 2 by one only it has (Anthropic's
   * `system`, Gemini's `contents`). The surest wins; between equals, the registry's first (dialect-of-body.ts).
   */
  recognize(body: Record<string, unknown>): number;
  /** A small request as its callers commonly send one (the warm-up sends it; a `route`'s URL carries what it says there). */
  typicalRequest(model: string, stream: boolean): Record<string, unknown>;
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

/** Where a caller's key may come from, besides the headers every dialect takes. */
export interface ApiKeySources {
  header?: string;
  /** A query parameter: never logged (the proxy logs paths without their query). */
  query?: string;
}

/** The URLs a dialect with a `route` serves, and the dialect bound to each call. */
export interface DialectRoute {
  /** Path prefixes under which its URLs are (`/v1beta/models/`); a URL there it does not match goes on to the next handler. */
  readonly prefixes: readonly string[];
  /** The call a `POST` to this URL (path and query) makes, or undefined when it is none of this dialect's. */
  match(url: string): RoutedDialect | undefined;
  /** The URL that generates with `model` (streamed or not), for callers of its own (the warm-up). */
  urlFor(model: string, stream: boolean): string;
}

export interface RoutedDialect {
  /** The dialect bound to the URL: its parse takes the model (and stream) from the URL, its framing the URL's. */
  dialect: Dialect;
  /** The model the URL names, for a reader of the URL without its request (an audited log line). */
  model: string;
  /** The URL counts tokens (`:countTokens`) rather than generating. */
  countTokens: boolean;
}

/** A model the routes serve, and the backend that serves it. */
export interface ListedModel {
  id: string;
  backend: string;
}
