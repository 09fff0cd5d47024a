/**
 * The checked configuration as the core reads it. Each backend kind adds its
 * own settings to `BackendCommon` (adapters/<kind>/, checked there too).
 */

/** How a model formats its text; set on a backend, or on a route for one model. */
export interface ModelFormat {
  /** Chat template for chat requests sent to a completions-only backend: `chatml` (default), or Jinja source. */
  chatTemplate?: string;
  /** Tags that wrap reasoning in raw completions text. @example { open: "<think>", close: "</think>" } */
  thinkTags?: { open: string; close: string };
  /** How tool calls appear in generated text: `hermes` (`<tool_call>{json}</tool_call>`, default) or `llama3-json`. */
  toolCallFormat?: 'hermes' | 'llama3-json';
  /** Budget thresholds (thinking tokens) for mapping an integer reasoning budget to a named effort. */
  effortLadder?: Record<string, number>;
}

/** Settings every backend kind takes. */
export interface BackendCommon extends ModelFormat {
  /** The kind's name in the registry (adapters/registry.ts). */
  kind: string;
  /** Drop fields the backend cannot honour (named in `x-dialect-warnings`) instead of answering 400. */
  dropUnsupported?: boolean;
}

export interface RouteSettings extends ModelFormat {
  /** Model name pattern; `*` matches any run of characters. */
  model: string;
  /** The backend, or several: the first serves, each next one takes over when the one before fails before the first byte. */
  backend: string | string[];
  /** The model name sent upstream (defaults to the caller's). */
  upstreamModel?: string;
  /** Per backend of the list, the model name sent to it where it differs (a fallback of another provider names its models its own way). */
  upstreamModels?: Record<string, string>;
  /** Reasoning efforts this model accepts (a subset of the backend's); others are a 400. */
  efforts?: string[];
}

export interface ServerSettings {
  host: string;
  port: number;
  /** Inbound keys; when set, callers must send one as `Authorization: Bearer <key>`. */
  apiKeys: string[];
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  logLevel: string;
  /** A stream that waits this long for its next event gets an SSE comment, so proxies and load balancers keep it open. */
  sseKeepAliveMs: number;
  /** On SIGTERM/SIGINT, requests in flight get this long to finish before they are ended. */
  shutdownGraceMs: number;
  /** Listen on a non-loopback address without `apiKeys` (an open relay of the backends' keys): only when set. */
  allowUnauthenticated: boolean;
  /** The inspector page at `GET /` (the standalone server; the middleware when asked): false turns it off everywhere. */
  inspector: boolean;
  /** A request body must have arrived whole within this long (a 408), so a slow sender cannot hold a connection. */
  requestTimeoutMs: number;
  /** The request line and headers must have arrived within this long (the standalone server; Node closes the connection). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long (the standalone server). */
  keepAliveTimeoutMs: number;
  /** Connections the standalone server holds at once; past it a new one takes an idle one's place (an anonymous one first), else is closed. */
  maxConnections: number;
  /** Connections one address (an IPv6 /64) holds at once, the same way; 0: no bound (behind a reverse proxy every caller is one address). */
  maxConnectionsPerAddress: number;
  /** Requests one connection may have awaiting their answers (HTTP pipelining); past it the connection is closed. */
  maxPipelinedRequests: number;
  /**
   * Before the standalone server reports ready, this long of synthetic requests to a loopback server
   * of canned answers, so that its first clients meet warm code (src/runtime/warm-up.ts); 0 turns it off.
   */
  warmUpMs: number;
}

/**
 * Budgets on the work one request may cause, decided before the work starts:
 * past each, the request is refused (a 4xx naming the field and the limit).
 */
export interface ProxyLimits {
  /** Prompts in one completions request (`prompt` as a list). */
  promptBatch: number;
  /** Choices in one answer: `n` times the prompts of a batch. */
  choices: number;
  /** Sub-requests one request runs at once where the proxy fans out (`n` or a batch the backend cannot take whole). */
  fanOutPerRequest: number;
  /** Fanned-out sub-requests running at once in the process, all requests together; more wait their turn. */
  fanOutPerProcess: number;
  /**
   * Fanned-out sub-requests one API key runs at once, all its requests together, so that one key never
   * holds every slot of the process; with fewer than two `server.apiKeys` (one owner) it does not apply.
   */
  fanOutPerKey: number;
  /** Nesting depth of a request body (objects and arrays). */
  jsonDepth: number;
  /** Values in a request body: every string, number, boolean, null, object and array (counted before parsing). */
  jsonValues: number;
  /** Objects and arrays in a request body, and the keys of its objects (counted before parsing: building them is parsing's costly part). */
  jsonContainers: number;
  /** Token ids in a completions `prompt`, the prompts of a batch together. */
  promptTokens: number;
  /** Messages in one request: `messages`, or the Responses API's `input` items. */
  messages: number;
  /** Content blocks or parts in one request, every message's (and a tool result's, and `system`'s) together. */
  contentParts: number;
  /** Tools (or legacy `functions`) offered in one request. */
  tools: number;
  /** Stop sequences (`stop`, `stop_sequences`) in one request. */
  stopSequences: number;
  /** Size of a grammar the proxy builds from tool schemas or a regex, in bytes. */
  grammarBytes: number;
  /** Time spent building one such grammar. */
  grammarMs: number;
  /** Background responses running in the process at once; more are a 429. */
  backgroundRuns: number;
  /** Background responses one API key runs at once; more are a 429. */
  backgroundRunsPerKey: number;
  /** Bytes of one output item (its text and logprobs, or a call's arguments) a Responses stream's closing events repeat; the deltas carry all. */
  repeatedOutputBytes: number;
}

/** `server.maxBodyBytes` when the config does not say (also `dialect-proxy audit`'s longest line without a config). */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** What each limit is when the config does not say (README, "Limits"). */
export const DEFAULT_LIMITS: Readonly<ProxyLimits> = Object.freeze({
  promptBatch: 128,
  choices: 128,
  fanOutPerRequest: 16,
  fanOutPerProcess: 64,
  fanOutPerKey: 32,
  jsonDepth: 64,
  jsonValues: 1_000_000,
  jsonContainers: 100_000,
  promptTokens: 262_144,
  messages: 10_000,
  contentParts: 20_000,
  tools: 1_024,
  stopSequences: 256,
  grammarBytes: 1024 * 1024,
  grammarMs: 50,
  backgroundRuns: 128,
  backgroundRunsPerKey: 16,
  repeatedOutputBytes: 4 * 1024 * 1024,
});

/** What every kind of response store takes. */
interface ResponseStoreCommon {
  /** The most responses kept, every key together; past it, the oldest of the key holding the most goes first. */
  maxResponses: number;
  /** Bytes kept in all (the JSON of every response and its own input); past it, the oldest of the key holding the most bytes goes first. */
  maxBytes: number;
  /** The most responses one API key keeps; past it, that key's own oldest goes first (never another key's). */
  maxResponsesPerKey: number;
  /** Bytes one API key keeps; past it, that key's own oldest go first. */
  maxBytesPerKey: number;
  /** How long a response is kept (a shared store sets it as each key's TTL). */
  maxAgeSeconds: number;
  /** Whether a request that does not say `store` is kept (OpenAI's default is true, and clients such as the AI SDK count on it). */
  storeByDefault: boolean;
  /** Bytes one response may take (its JSON and its own input); a larger one is not kept. */
  maxResponseBytes: number;
  /** How many responses a `previous_response_id` chain may hold; a longer one is a 400. */
  maxContinuationDepth: number;
}

/** In this process: for a single instance. */
export interface MemoryResponseStoreSettings extends ResponseStoreCommon {
  kind: 'memory';
}

/** In Redis: shared by every replica and every `--workers` process that points at it. */
export interface RedisResponseStoreSettings extends ResponseStoreCommon {
  kind: 'redis';
  /** `redis://[user:password@]host:port/db` or `rediss://` (TLS). */
  url: string;
  /** Put in front of every key and channel, so several proxies (or apps) may share one Redis. */
  keyPrefix: string;
  connectTimeoutMs: number;
  /** How long one command may take; past it, the request that needed the store is a 503 `store_unavailable`. */
  commandTimeoutMs: number;
  /** A background run's lease: a replica that stops renewing it (it died) leaves its run to be marked failed after this long. */
  runLeaseSeconds: number;
}

/** Where the Responses API's state is kept (src/response-store/); without a store the proxy is stateless. */
export type ResponseStoreSettings = MemoryResponseStoreSettings | RedisResponseStoreSettings;

/**
 * OpenTelemetry traces (src/telemetry/). The section switches tracing on; the
 * standard `OTEL_*` variables fill in whatever it leaves out, and switch it on
 * without it (README, "Traces").
 * @example
 * telemetry: { endpoint: http://tempo:4318, protocol: http/json, serviceName: llm-gateway }
 */
export interface TelemetrySettings {
  /** False turns tracing off whatever the variables say; true (the default when the section is there) turns it on. */
  enabled: boolean;
  /** The OTLP/HTTP base URL; `/v1/traces` is appended (as for `OTEL_EXPORTER_OTLP_ENDPOINT`). */
  endpoint?: string;
  /** `http/protobuf` (the default) or `http/json`. */
  protocol?: 'http/protobuf' | 'http/json';
  /** Headers sent with every export (an API key of the collector). */
  headers?: Record<string, string>;
  /** `service.name` of the spans (default `dialect-proxy`). */
  serviceName?: string;
  /** As `OTEL_TRACES_SAMPLER`: always_on, always_off, traceidratio, parentbased_always_on (default), parentbased_always_off, parentbased_traceidratio. */
  sampler?: string;
  /** The ratio of the `traceidratio` samplers, 0..1 (as `OTEL_TRACES_SAMPLER_ARG`). */
  samplerRatio?: number;
  /** True: a caller's `traceparent` sampled flag decides, as the `parentbased_*` samplers do; false (the default): the sampler above decides, the caller's trace still continued. */
  honourCallerSampling?: boolean;
  /** Prompt and completion text on spans (`gen_ai.input.messages`, `gen_ai.output.messages`): off unless asked. */
  captureContent?: boolean;
}

export interface ProxyConfig {
  server: ServerSettings;
  /** `POST /v1/responses` state: `previous_response_id`, `store`, `background`, `GET /v1/responses/{id}`. */
  responses: {
    store?: ResponseStoreSettings;
    /** The secret the proxy seals the items it hands callers back under (src/dialects/sealer.ts); unset, a key file in the cache folder. */
    encryptionKey?: string;
  };
  limits: ProxyLimits;
  backends: Record<string, BackendCommon>;
  /** Backend that receives every other `/v1/*` path untouched. */
  passthrough?: string;
  routes: RouteSettings[];
  /** Traces: present when the config has a `telemetry` section. */
  telemetry?: TelemetrySettings;
}
