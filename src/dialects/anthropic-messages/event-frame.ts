/**
 * A Messages stream event's SSE frame, fast for the events streamed most
 * (docs/performance.md, "Frames"): a `content_block_delta` of text, thinking or
 * a tool's input is framed with only its text stringified, not the whole event.
 * Any other event goes to encodeSseEvent; a property test checks that both
 * write the same bytes.
 */
import { encodeSseEvent } from '../../streaming/encode-sse.js';

type Chunk = Record<string, unknown>;

/** Each delta streamed per token, and the key of its text. */
const TEXT_KEYS: Readonly<Record<string, string>> = { text_delta: 'text', thinking_delta: 'thinking', input_json_delta: 'partial_json' };

export function encodeMessagesEventFrame(chunk: Chunk): string {
  if (chunk.type !== 'content_block_delta') return encodeSseEvent(chunk);
  const { index, delta } = chunk;
  const keys = Object.keys(chunk);
  if (keys.length !== 3 || keys[0] !== 'type' || keys[1] !== 'index' || keys[2] !== 'delta' || !Number.isSafeInteger(index))
    return encodeSseEvent(chunk);
  if (typeof delta !== 'object' || delta === null || Array.isArray(delta)) return encodeSseEvent(chunk);
  const deltaKeys = Object.keys(delta);
  const type = (delta as Chunk).type;
  const key = typeof type === 'string' && Object.hasOwn(TEXT_KEYS, type) ? TEXT_KEYS[type] : undefined;
  const text = key === undefined ? undefined : (delta as Chunk)[key];
  if (deltaKeys.length !== 2 || deltaKeys[0] !== 'type' || deltaKeys[1] !== key || typeof text !== 'string') return encodeSseEvent(chunk);
  return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${String(index)},"delta":{"type":"${type as string}","${key}":${JSON.stringify(text)}}}\n\n`;
}
