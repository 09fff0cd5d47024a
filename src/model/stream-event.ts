/**
 * Stream parts, named noun-action. Every adapter yields these (in batches). The neutral ones are a closed set
 * every dialect's serializer handles; a vendor's own (`{type: 'vendor'}`, vendor-data.ts) reaches only the
 * serializers that name that vendor (src/dialects/stream-serializer.ts), so a new one changes no other.
 */
import type { ProxyError } from '../errors/proxy-error.js';
import type { TokenLogprob } from './logprobs.js';
import type { FinishReason, PerfMetrics, Usage } from './result.js';
import type { VendorData, VendorEvent, VendorName } from './vendor-data.js';

export type NeutralStreamEvent =
  | {
      type: 'response-start';
      id: string;
      model: string;
      created: number;
      systemFingerprint?: string;
      /**
       * The counts known as the answer starts (the prompt's size: the bundled worker's token count, an
       * Anthropic backend's `message_start`), where the backend tells them before generating. Only said
       * (Anthropic's `message_start.usage`): the request's usage is the `usage` event's, at the end.
       */
      usage?: Usage;
    }
  /** `echo: true` marks echoed prompt text (completions `echo`/`echo_last`), sent before the choice's generated text. */
  | {
      type: 'text-delta';
      choice: number;
      delta: string;
      tokenIds?: number[];
      logprobs?: TokenLogprob[];
      echo?: boolean;
      /** The prompt's token ids, on the first delta of a choice, when the backend streams them (Fireworks `return_token_ids`). */
      promptTokenIds?: number[];
      /** Citations attached to the text (OpenAI `url_citation`s), kept as sent. */
      annotations?: unknown[];
    }
  | { type: 'reasoning-delta'; choice: number; delta: string; tokenIds?: number[]; logprobs?: TokenLogprob[] }
  /** The signature of the choice's reasoning so far (an Anthropic backend's `signature_delta`); dialects without signatures ignore it. */
  | { type: 'reasoning-signature'; choice: number; signature: string }
  /** `custom`: a call of a custom tool, whose `argumentsDelta` is a piece of its free-text input. */
  | { type: 'tool-call-delta'; choice: number; index: number; id?: string; name?: string; argumentsDelta: string; custom?: boolean }
  | {
      type: 'choice-end';
      choice: number;
      finishReason: FinishReason;
      /** The choice's streamed `delta.refusal` text, joined (OpenAI structured-output refusals). */
      refusal?: string;
      /** Which of the request's stop sequences ended the text, when the backend says. */
      stopSequence?: string;
      /** What only one vendor has that arrives as the choice ends (Fireworks' `raw_output`): vendor-data.ts. */
      vendor?: VendorData<'choiceEnd'>;
    }
  | { type: 'usage'; usage: Usage }
  | { type: 'perf'; perf: PerfMetrics }
  | { type: 'error'; error: ProxyError };

export type StreamEvent = NeutralStreamEvent | VendorEvent;

/** What a serializer that reads the vendors `V` is given: every neutral event, and those vendors' own. */
export type SerializedEvent<V extends VendorName = never> = NeutralStreamEvent | VendorEvent<V>;

export type StreamEventOf<T extends StreamEvent['type']> = Extract<StreamEvent, { type: T }>;

/**
 * A stream as engines produce it: batches of events in order, one per upstream
 * packet (or per generated token), never empty. A packet's events then cost
 * one async step, not one each; a consumer may keep a batch it was given.
 */
export type StreamBatches = AsyncIterable<StreamEvent[]>;
