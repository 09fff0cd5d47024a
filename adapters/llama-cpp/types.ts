/**
 * The engine's own types: what the host accepts, what the worker streams back,
 * and the messages between them. Plain data only (everything crosses the IPC channel).
 */

/** Options of a `kind: llama-cpp` backend. */
export interface LlamaBackendOptions {
  /**
   * `builtin` (the generated tiny model), a path to a `.gguf` file, or `hf:owner/repo/file.gguf`.
   * @example 'builtin'
   */
  model: string;
  /** Tokens per sequence; default 2048 (or the model's training context if smaller). */
  contextSize?: number;
  /** Sequences in the context = requests generating at once. Default 1. */
  parallel?: number;
  /** Requests that may wait for a free sequence; past it a 429. Default 16 x parallel. */
  queueLimit?: number;
  /** CPU threads for evaluation. Default 1: more oversubscribes a small shared CPU (spin-wait contention). */
  threads?: number;
  /**
   * While a stream flows, its token events leave the worker at most once per this many
   * milliseconds (the first token and the end leave at once): fewer wake-ups of the HTTP
   * thread and the client leave the CPU to generation. 0: each decoding step's tokens together. Default 16.
   */
  streamBatchMs?: number;
  /** Use the GPU when node-llama-cpp has a GPU build. Default false. */
  gpu?: boolean;
  /** Where the built-in model and downloads go. Default `$DIALECT_PROXY_CACHE` or `~/.cache/dialect-proxy`. */
  cacheDir?: string;
  /** Progress bars for download and load on stderr. Default: when stderr is a TTY. */
  showProgress?: boolean;
  /** A download that makes no progress for this long fails. Default 30000 ms. */
  downloadStallMs?: number;
}

/**
 * Where each option may be set: `config` in a config file (and code), `code` only
 * by code that builds the adapter (tests, embedders). A new option without a row does not compile.
 */
export const llamaOptionSources = {
  model: 'config',
  contextSize: 'config',
  parallel: 'config',
  queueLimit: 'config',
  threads: 'config',
  streamBatchMs: 'config',
  gpu: 'code',
  cacheDir: 'code',
  showProgress: 'code',
  downloadStallMs: 'code',
} as const satisfies Record<keyof LlamaBackendOptions, 'config' | 'code'>;

type OptionSources = typeof llamaOptionSources;
/** The options a config file may set. */
export type ConfigurableLlamaOptions = Pick<
  LlamaBackendOptions,
  { [K in keyof OptionSources]: OptionSources[K] extends 'config' ? K : never }[keyof OptionSources]
>;
export const configurableLlamaOptions = Object.keys(llamaOptionSources).filter(
  (key) => llamaOptionSources[key as keyof OptionSources] === 'config',
);

export type LlamaGrammarSpec = { kind: 'json' } | { kind: 'json-schema'; schema: object } | { kind: 'gbnf'; text: string };

/**
 * Forces the end of a thought when it runs long: tokens generated between
 * `openTag` and `closeTag` are counted, and at `budgetTokens` the text
 * `budgetEndText + closeTag` is evaluated into the sequence and generation goes on.
 */
export interface LlamaThinkingBudget {
  budgetTokens: number;
  budgetEndText: string;
  openTag: string;
  closeTag: string;
  /** True when the prompt already opened the thought (templates that end with `<think>`). */
  startsInside?: boolean;
}

export interface LlamaGenerateRequest {
  /** Text (tokenized with special tokens parsed) or exact token ids. */
  prompt: string | number[];
  /** Prepend BOS. Default: the model's setting for text prompts, false for token ids. */
  addBos?: boolean;
  /** Default: whatever fits in the context. */
  maxTokens?: number;
  /** `truncate` lowers maxTokens to fit the context; `error` rejects with `context_length_exceeded`. */
  onContextOverflow: 'truncate' | 'error';
  stop: string[];
  ignoreEos?: boolean;
  /** Default 1 (OpenAI's default); 0 is greedy. */
  temperature?: number;
  topK?: number;
  topP?: number;
  minP?: number;
  typicalP?: number;
  repetitionPenalty?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** Token id -> additive logit bias. */
  logitBias?: Record<number, number>;
  seed?: number;
  /** Number of top alternatives per token; absent = no logprobs. */
  logprobs?: number;
  /** Echo the prompt (all of it, or its last tokens). */
  echo?: { all: boolean; lastTokens?: number };
  grammar?: LlamaGrammarSpec;
  thinking?: LlamaThinkingBudget;
}

export interface LlamaAlternative {
  token: string;
  tokenId: number;
  bytes: number[];
  logprob: number;
}

export interface LlamaTokenLogprob extends LlamaAlternative {
  /** The `logprobs` most likely tokens, most likely first (may include the token itself). */
  top: LlamaAlternative[];
}

export interface LlamaUsage {
  promptTokens: number;
  /** Generated tokens, counting the end-of-generation token and forced thinking-budget tokens. */
  completionTokens: number;
  /** Prompt tokens whose evaluation was reused from the sequence's previous request. */
  cachedPromptTokens: number;
}

/** Measured in the worker, milliseconds. */
export interface LlamaPerf {
  queueMs: number;
  prefillMs: number;
  timeToFirstTokenMs: number;
  generationMs: number;
  totalMs: number;
  tokensPerSecond: number;
}

export type LlamaFinishReason = 'stop' | 'length';

/** A prompt token's logprob; `null` for a token with no context before it (nothing scored it). */
export type LlamaPromptLogprob = Omit<LlamaTokenLogprob, 'logprob'> & { logprob: number | null };

export interface LlamaEcho {
  /** The echoed prompt text (the caller's own string when all of it is echoed). */
  text: string;
  tokenIds: number[];
  /** With `logprobs`: one entry per echoed token. */
  logprobs?: LlamaPromptLogprob[];
}

export type LlamaEvent =
  /** Always first: the prompt's token ids (BOS included), and with `echo` the echoed part (an added BOS left out). */
  | { type: 'prompt'; tokenIds: number[]; echo?: LlamaEcho }
  /** `text` is exactly the text of `tokenIds` (text held back for a stop sequence comes later). */
  | { type: 'token'; text: string; tokenIds: number[]; logprobs?: LlamaTokenLogprob[] }
  | { type: 'end'; finishReason: LlamaFinishReason; usage: LlamaUsage; perf: LlamaPerf };

export interface LlamaModelInfo {
  path: string;
  name: string;
  architecture: string;
  /** Tokens per sequence. */
  contextSize: number;
  trainContextSize: number;
  vocabularySize: number;
  parallel: number;
  threads: number;
  /** `tokenizer.chat_template` from the GGUF metadata, when the model has one. */
  chatTemplate?: string;
  bosToken?: string;
  eosToken?: string;
  addBos: boolean;
  loadMs: number;
  /** What a text's bytes say of its tokens (prompt-byte-bound.ts); absent where the tokenizer says nothing. */
  byteBound?: PromptByteBound;
}

/**
 * A tokenizer's bound on bytes per token: a text of B bytes has at least B / maxTokenBytes tokens
 * (only the bytes other than whitespace, where whitespace next to a special token is dropped).
 */
export interface PromptByteBound {
  /** The most bytes of text one token takes. */
  maxTokenBytes: number;
  /** A special token strips the whitespace next to it (lstrip/rstrip, e.g. Phi-3's): whitespace may cost no token. */
  whitespaceMayVanish: boolean;
}

/** An error as it crosses from the worker; the host turns it into a ProxyError. */
export interface LlamaErrorData {
  status: number;
  code: string;
  message: string;
  param?: string;
  retryAfterSeconds?: number;
}

export interface WorkerInit {
  options: LlamaBackendOptions;
  cacheDir: string;
}

export type HostMessage =
  /** First message: what to load. */
  | { type: 'init'; init: WorkerInit }
  | { type: 'generate'; id: number; request: LlamaGenerateRequest }
  | { type: 'abort'; id: number }
  /** Its id takes an `abort` too, while it waits for the tokenizer thread. */
  | { type: 'tokenize'; id: number; text: string; special: boolean }
  | { type: 'detokenize'; id: number; tokens: number[] }
  /** Tests: fail as a bug would (an uncaught error), or `native`ly as a failed assertion in llama.cpp (abort). */
  | { type: 'crash'; native?: boolean }
  | { type: 'shutdown' };

export type WorkerMessage =
  | { type: 'progress'; phase: 'download' | 'load'; fraction: number }
  | { type: 'ready'; info: LlamaModelInfo }
  | { type: 'startup-failed'; error: LlamaErrorData }
  /** An uncaught error: the worker drains its generations and exits; the host restarts it. */
  | { type: 'fatal'; message: string }
  | { type: 'event'; id: number; event: LlamaEvent }
  | { type: 'failed'; id: number; error: LlamaErrorData }
  | { type: 'result'; id: number; value: unknown };
