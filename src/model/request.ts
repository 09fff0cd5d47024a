/**
 * The neutral request: what every caller dialect parses into and every adapter reads.
 * Names are camelCase and dialect-free; `origins` remembers which wire field set
 * each neutral feature, so errors and warnings can name the caller's `param`.
 */
import type { LogprobsShape } from './logprobs.js';
import type { VendorData } from './vendor-data.js';

export type Endpoint = 'chat' | 'text';

export type Effort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | 'adaptive';

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function';

export type ContentPart = (
  | { type: 'text'; text: string }
  | { type: 'image'; url: string; detail?: string }
  | { type: 'audio'; data: string; format: string }
  | { type: 'file'; file: Record<string, unknown> }
  | { type: 'refusal'; refusal: string }
  /** A video by URL (Fireworks' `video_url` part, Gemini's `fileData` of a video type). */
  | { type: 'video'; url: string; detail?: string }
) & {
  /** Wire keys of the part with no neutral meaning (`prompt_cache_breakpoint`, `image_url.max_long_side_pixel`, ...), kept for a native relay. */
  extra?: Record<string, unknown>;
  vendor?: VendorData<'part'>;
};

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text, exactly as the model produced it; for a custom tool's call, its free-text input. */
  arguments: string;
  /** A call of a custom tool (OpenAI's `{type: 'custom', custom: {name, input}}`): `arguments` is the input text. */
  custom?: boolean;
  vendor?: VendorData<'toolCall'>;
}

export interface Message {
  role: Role;
  content: string | ContentPart[] | null;
  name?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  /** Assistant reasoning from an earlier turn (`reasoning_content`). */
  reasoning?: string;
  /** The caller's field the reasoning came from when it is not the message's own (`input[2]`, a Responses reasoning item), for warnings. */
  reasoningOrigin?: string;
  /** The signature that came with the reasoning (an Anthropic thinking block's), returned as it was given. */
  reasoningSignature?: string;
  /** On a tool result: the tool failed (Anthropic `is_error`). */
  toolError?: boolean;
  /** Wire fields of the message that have no neutral meaning but must survive a native relay (refusal, audio, ...). */
  extra?: Record<string, unknown>;
  vendor?: VendorData<'message'>;
}

/** What a custom tool's input may be: any text, or text a grammar accepts (Lark or a regular expression). */
export type CustomToolFormat = { type: 'text' } | { type: 'grammar'; syntax: 'lark' | 'regex'; definition: string };

export interface ToolDefinition {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  strict?: boolean;
  /**
   * A custom tool (OpenAI's `{type: 'custom'}`): the model calls it with free text, not JSON
   * arguments; `format` may constrain that text. `parameters` and `strict` are then unset.
   */
  custom?: { format: CustomToolFormat };
  vendor?: VendorData<'tool'>;
}

export type ToolChoice = 'none' | 'auto' | 'required' | { name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object'; schema?: Record<string, unknown> }
  | { type: 'json_schema'; name?: string; description?: string; schema: Record<string, unknown>; strict?: boolean }
  | { type: 'grammar'; grammar: string };

export type Prompt = string | string[] | number[] | number[][];

export interface Sampling {
  temperature?: number;
  topP?: number;
  topK?: number;
  minP?: number;
  typicalP?: number;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  repetitionPenalty?: number;
  logitBias?: Record<string, number>;
  mirostat?: { target?: number; learningRate?: number };
}

export interface Limits {
  maxTokens?: number;
  stop: string[];
  ignoreEos?: boolean;
  onContextOverflow: 'truncate' | 'error';
}

export interface Reasoning {
  /** A named effort, or absent when only a budget was given. */
  effort?: Effort;
  /** A hard budget of thinking tokens (Fireworks integer effort / thinking.budget_tokens). */
  budgetTokens?: number;
  history?: 'disabled' | 'interleaved' | 'preserved';
  budgetEndText?: string;
  /**
   * The thinking setting is offered, not required (Anthropic's `thinking` and `output_config.effort`: what
   * the model may do, not what the answer must hold): a backend with no place for it goes without, named in
   * a warning, never a 400 (src/pipeline/plan/plan-reasoning.ts).
   */
  offered?: boolean;
}

export interface StreamOptions {
  includeUsage: boolean;
  /** `include_internal_content`: token ids on each delta. */
  tokenIds: boolean;
  coalesce?: { tokens?: number; ms?: number; mode: 'any' | 'all' };
}

export interface NeutralRequest {
  endpoint: Endpoint;
  model: string;
  messages?: Message[];
  prompt?: Prompt;
  sampling: Sampling;
  limits: Limits;
  /** `n`: choices per prompt. */
  choices: number;
  reasoning?: Reasoning;
  logprobs?: { top: number; shape: LogprobsShape };
  echo?: { all: boolean; lastTokens?: number };
  /** Present exactly when the caller asked for a stream. */
  stream?: StreamOptions;
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  /** The caller used the legacy `functions`/`function_call`: answer with `message.function_call` and finish_reason `function_call`. */
  legacyFunctions?: boolean;
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  /** Predicted output / speculation text or token ids. */
  prediction?: string | number[];
  images?: string[] | string[][];
  returnTokenIds?: boolean;
  perfMetricsInBody?: boolean;
  samplingMask?: 'count' | 'non_zero_list' | 'non_zero_buffer';
  /** The session's key (prompt_cache_key, session headers, user). Nothing reads it yet: replica pools will route on it (rendezvous hashing). */
  affinityKey?: string;
  user?: string;
  promptCacheKey?: string;
  promptCacheIsolationKey?: string;
  metadata?: Record<string, unknown>;
  /** What only one vendor has (Anthropic's cache control and betas, Fireworks' raw output): vendor-data.ts. */
  vendor?: VendorData<'request'>;
  store?: boolean;
  serviceTier?: string;
  /**
   * Request parameters the caller's answer repeats as they were sent (the Responses API's Response
   * object echoes its instructions, tools, text format, metadata...), keyed by wire name. Never sent upstream.
   */
  echoedParams?: Record<string, unknown>;
  /** Wire fields relayed verbatim to a backend that speaks the caller's dialect natively, keyed by wire name. */
  passthrough: Record<string, unknown>;
  /** Of those, the options the caller offers (chat's `web_search_options`): a backend without them goes without, in a warning. */
  offeredPassthrough?: string[];
  /**
   * Neutral fields the caller's dialect offers rather than asks for (Gemini's topK, which Gemini CLI sends on
   * every request): a backend without one goes without it, named in a warning, never a 400.
   */
  offeredPaths?: NeutralPath[];
  /** Neutral path -> the wire field that set it, for error `param`s; `passthrough.<key>` for a relayed field the caller named otherwise. */
  origins: Partial<Record<NeutralPath | `passthrough.${string}`, string>>;
  /** Lossy changes made on the way, surfaced in `x-dialect-warnings`. */
  warnings: string[];
}

/** A fresh neutral request with every required part at its default. */
export function emptyRequest(endpoint: Endpoint, model = ''): NeutralRequest {
  return {
    endpoint,
    model,
    sampling: {},
    limits: { stop: [], onContextOverflow: 'truncate' },
    choices: 1,
    passthrough: {},
    origins: {},
    warnings: [],
  };
}

/**
 * Typed dotted paths into the neutral request (`sampling.topK`, `limits.stop`):
 * `origins` and the backend tables reject a typo at compile time. Arrays and
 * open records (`metadata`, `logitBias`) are leaves.
 */
type Bookkeeping = 'origins' | 'warnings' | 'passthrough' | 'offeredPassthrough' | 'offeredPaths';

type IsOpenRecord<T> = string extends keyof T ? true : false;

type PathsOf<T, Depth extends unknown[] = []> = {
  [K in keyof T & string]: NonNullable<T[K]> extends readonly unknown[] | string | number | boolean
    ? K
    : NonNullable<T[K]> extends object
      ? IsOpenRecord<NonNullable<T[K]>> extends true
        ? K
        : Depth['length'] extends 2
          ? K
          : K | `${K}.${PathsOf<NonNullable<T[K]>, [...Depth, unknown]>}`
      : K;
}[keyof T & string];

/** Every neutral request path the dialects set and the backends read. */
export type NeutralPath = PathsOf<Omit<NeutralRequest, Bookkeeping>>;
