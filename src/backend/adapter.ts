/**
 * The backend contract: what the core asks of every backend kind. An adapter
 * sends one neutral request to one backend. It never sees a caller's wire
 * format and never routes: the plan step picks the backend and has already
 * checked the request against `capabilities`.
 */
import type { ProxyError } from '../errors/proxy-error.js';
import type { NeutralRequest } from '../model/request.js';
import type { NeutralResult, Usage } from '../model/result.js';
import type { StreamBatches } from '../model/stream-event.js';
import type { BackendTable } from './field-support.js';

export type SpokenEndpoint = 'chat' | 'completions';

/** What the plan checks a request against: the kind's field table (field-support.ts) and these limits. */
export interface BackendCapabilities extends BackendTable {
  /** Endpoints the backend serves itself; the other dialect is translated. */
  speaks: ReadonlyArray<SpokenEndpoint>;
  /** The most top logprobs the backend returns per token. */
  maxTopLogprobs: number;
  /** Efforts the backend accepts as a string (strict OpenAI takes no integers). */
  efforts: ReadonlySet<string>;
}

/** Inbound headers forwarded upstream (and only these): Fireworks routes multi-turn rollouts by them. */
export const AFFINITY_HEADERS: readonly string[] = ['x-session-affinity', 'x-multi-turn-session-id'];

export interface AdapterContext {
  signal: AbortSignal;
  /** The proxy's request id, forwarded upstream as `x-request-id`. */
  requestId: string;
  /** Inbound headers worth forwarding (AFFINITY_HEADERS, lower-case names; others are not sent). */
  headers?: Record<string, string>;
  /**
   * Called once a stream's backend has taken the request (its HTTP 200, the
   * worker starting it): it will not be retried from then on, so the proxy may
   * send its headers and keep-alive comments before the first event.
   */
  accepted?(): void;
  /** Called before each retry of the upstream request, with the failure of the try before. */
  retrying?(failure: ProxyError): void;
  /**
   * How many sub-requests the pipeline's fan-out (`n`, prompt batches) may run at once: per request,
   * and the process's slots shared by every request. Adapters ignore it.
   */
  fanOut?: FanOutBudget;
  /** Whose request this is (the digest of its API key, '' without keys): the share of the fan-out slots its sub-requests count against. */
  owner?: string;
  /**
   * Opens a span of the request's trace for one piece of the backend's work: each HTTP try (`url`),
   * the worker's generation. Absent when tracing is off (src/telemetry/).
   */
  trace?(work: { url?: string }): WorkSpan;
}

/** A span of a backend's work (src/telemetry/work-span.ts). */
export interface WorkSpan {
  /** `traceparent` (and `tracestate`) for the upstream request: the backend continues the trace. */
  readonly headers: Readonly<Record<string, string>>;
  /** The HTTP status the backend answered. */
  status(code: number): void;
  /** The token counts the work reported. */
  usage(usage: Usage): void;
  /** The work is over (its answer read to the end), or failed with `error`; later calls do nothing. */
  end(error?: unknown): void;
}

export interface FanOutBudget {
  perRequest: number;
  /** Shared by every request of the process (`limits.fanOutPerProcess`), each owner holding at most its share (`limits.fanOutPerKey`). */
  process?: { acquire(signal: AbortSignal, owner?: string): Promise<() => void> };
}

/** Numbers only the backend knows, read at each metrics scrape. */
export interface BackendStats {
  /** Requests waiting for a slot (a concurrency limit's queue). */
  queued?(): number;
  /** Times its worker process was restarted after a crash. */
  restarts?(): number;
  /** Each replica of a pool (`urls`): its state and load. */
  replicas?(): readonly ReplicaStat[];
}

/** `healthy`: in service; `ejected`: failing requests took it out for a while; `down`: its health probe fails. */
export type ReplicaState = 'healthy' | 'ejected' | 'down';

export interface ReplicaStat {
  /** Its URL as configured (without any user:password part). */
  replica: string;
  state: ReplicaState;
  /** Requests sent to it and not yet finished. */
  outstanding: number;
  /** Times failing requests have ejected it. */
  ejections: number;
}

/** A model's own chat template (e.g. from GGUF metadata), used when the backend config names none. */
export interface ChatTemplate {
  source: string;
  bosToken?: string;
  eosToken?: string;
}

/** Where OpenAI-compatible servers take each endpoint, under a base URL ending in /v1. */
export const OPENAI_PATHS = { chat: '/chat/completions', completions: '/completions' } as const;

export interface Adapter {
  readonly name: string;
  readonly capabilities: BackendCapabilities;
  /** Known once `start` has resolved. */
  readonly chatTemplate?: ChatTemplate;
  /**
   * True while the model's own template may still come (a local model not loaded yet, as the offline
   * commands build it): without a `chatTemplate` the plan cannot yet say that ChatML is a guess.
   */
  readonly chatTemplatePending?: boolean;
  /** Model names this backend serves, known once started: `GET /v1/models` lists them for a wildcard route. */
  readonly models?: readonly string[];
  /** Loads models or opens connections before the first request; /healthz turns 200 after it. */
  start?(): Promise<void>;
  /** Where each endpoint's body is posted under the backend's URL; none for an engine in this process. */
  readonly paths?: Readonly<Record<'chat' | 'completions', string>>;
  /** Where a stream is posted, when not at `paths` (Gemini's `:streamGenerateContent`). */
  readonly streamPaths?: Readonly<Record<'chat' | 'completions', string>>;
  /** The body this adapter would send for a request (no I/O): for dry runs and the fate table. */
  toWire(request: NeutralRequest): Record<string, unknown>;
  complete(request: NeutralRequest, context: AdapterContext): Promise<NeutralResult>;
  /**
   * The prompt tokens of a request by the backend's own tokenizer, without generating
   * (`count_tokens`); absent, or undefined, where the backend has no way to tell.
   */
  countTokens?(request: NeutralRequest, context: AdapterContext): Promise<number | undefined>;
  stream(request: NeutralRequest, context: AdapterContext): StreamBatches;
  /** Releases connections, workers and models. */
  close?(): Promise<void>;
  readonly stats?: BackendStats;
}
