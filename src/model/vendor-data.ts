/**
 * What only one vendor has travels in that vendor's namespace of the neutral types, `vendor`, as vercel/ai's
 * providerOptions and providerMetadata do: `request.vendor.anthropic.contextManagement`, a part's
 * `vendor.anthropic.cacheControl`, a result choice's `vendor.fireworks.rawOutput`, and one generic stream
 * event (`{type: 'vendor', vendor: 'anthropic', data}`). Only the dialects and kinds that know a vendor read
 * its namespace; the rest pass it along untouched, and a stream serializer that names no vendor never sees
 * a vendor's event (src/dialects/stream-serializer.ts: pushEvent).
 *
 * A new vendor's data is one interface here and one line in `Vendors`: no neutral type, and no other
 * dialect's serializer, changes. Data more than one vendor has (reasoning signatures, prompt token ids,
 * video parts) is neutral: it is a property of the types themselves.
 */

/** Where vendor data may ride: on the request and its pieces, on a result's choice, on a stream's events. */
export type VendorPlace = 'request' | 'message' | 'part' | 'toolCall' | 'tool' | 'choice' | 'choiceEnd' | 'event';

/** A prompt-caching breakpoint (Anthropic's `cache_control`): cache the prompt up to here, for `ttl` (`5m`, `1h`). */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: string;
}

/** Anthropic's: the Messages dialect and the anthropic kind read it (the sealing dialects carry its redacted reasoning). */
export interface AnthropicData {
  request: {
    /** A caching breakpoint for the whole prompt (top-level `cache_control`); parts, tool calls and tools carry their own. */
    cacheControl?: CacheControl;
    /** How the backend may trim the conversation to fit (`context_management`), as sent. */
    contextManagement?: Record<string, unknown>;
    /**
     * The beta features the caller opted into by name (the `anthropic-beta` header): an anthropic backend sends
     * them with its own; elsewhere they mean nothing (what a beta field asks is its own field's).
     */
    betas?: string[];
  };
  message: {
    /** Reasoning Anthropic encrypted (`redacted_thinking` blocks' `data`) in an earlier turn, in order. */
    redactedReasoning?: string[];
  };
  part: { cacheControl?: CacheControl };
  toolCall: { cacheControl?: CacheControl };
  tool: { cacheControl?: CacheControl };
  choice: {
    /** Reasoning Anthropic encrypted (`redacted_thinking` blocks' `data`), in order. */
    redactedReasoning?: string[];
  };
  /** A stream's `vendor` event: one `redacted_thinking` block, whole (it has no deltas). */
  event: { redactedReasoning: string };
}

/** Fireworks': the chat and completions dialects (their `raw_output`) and the fireworks kind read it. */
export interface FireworksData {
  request: {
    /** `raw_output`: ask for the answer's raw form (the prompt as the model saw it, its fragments, the completion). */
    rawOutput?: boolean;
  };
  choice: { rawOutput?: Record<string, unknown> };
  /** On `choice-end`: the raw output arrives on the chunk that finishes the choice. */
  choiceEnd: { rawOutput?: Record<string, unknown> };
}

/** Every vendor with data of its own: a new vendor is one line here. */
export interface Vendors {
  anthropic: AnthropicData;
  fireworks: FireworksData;
}

export type VendorName = keyof Vendors;

/**
 * The `vendor` property at a place: each vendor with data there, under its name, typed as that vendor declared it.
 * @example const part: ContentPart = { type: 'text', text: 'Long document', vendor: { anthropic: { cacheControl: { type: 'ephemeral' } } } };
 */
export type VendorData<P extends VendorPlace> = {
  [V in VendorName as P extends keyof Vendors[V] ? V : never]?: Vendors[V][P & keyof Vendors[V]];
};

/** One vendor's stream event, discriminated by `vendor`: `data` is what that vendor declared as its `event`. */
export type VendorEvent<V extends VendorName = VendorName> = {
  [K in V]: Vendors[K] extends { event: infer Data } ? { type: 'vendor'; choice: number; vendor: K; data: Data } : never;
}[V];

type Holder = { vendor?: { [vendor: string]: object | undefined } };

/**
 * The holder without one key of a vendor's namespace: a copy (without the namespace once it is empty, and
 * without `vendor` once it holds none), or the holder itself when the key was not there. Never a change in
 * place: a plan's copy of the request shares its parts with the caller's.
 * @example withoutVendorKey(part, 'anthropic', 'cacheControl') // the part as it would be without the breakpoint
 */
export function withoutVendorKey<T extends Holder>(holder: T, vendor: VendorName, key: string): T {
  const data = holder.vendor?.[vendor] as Record<string, unknown> | undefined;
  if (data?.[key] === undefined) return holder;
  const { [key]: _dropped, ...kept } = data;
  const { [vendor]: _old, ...others } = holder.vendor ?? {};
  const namespaces = Object.keys(kept).length > 0 ? { ...others, [vendor]: kept } : others;
  const { vendor: _all, ...rest } = holder;
  return (Object.keys(namespaces).length > 0 ? { ...rest, vendor: namespaces } : rest) as T;
}
