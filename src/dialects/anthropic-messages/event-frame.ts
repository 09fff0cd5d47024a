/**
 * A Messages stream event's SSE frame, fast for the events streamed most
 * (docs/performance.md, "Frames"): a `content_block_delta` of text, thinking or
 * a tool's input is framed with only its text stringified, not the whole event.
 * Any other event goes to encodeSseEvent; a property test checks that both
 * write the same bytes.
 */
import { isRecord } from '../../model/is-record.js';
import { encodeSseEvent } from '../../streaming/encode-sse.js';
import { keysAre } from '../../streaming/frame-head.js';

type Chunk = Record<string, unknown>;

const DELTA_EVENT_KEYS = ['type', 'index', 'delta'];
/** Each delta streamed per token, and its keys: `type`, then its text's. */
const DELTA_KEYS: Readonly<Record<string, readonly [string, string]>> = {
  text_delta: ['type', 'text'],
  thinking_delta: ['type', 'thinking'],
  input_json_delta: ['type', 'partial_json'],
};

export function encodeMessagesEventFrame(chunk: Chunk): string {
  if (chunk.type !== 'content_block_delta') return encodeSseEvent(chunk);
  const { index, delta } = chunk;
  if (!keysAre(chunk, DELTA_EVENT_KEYS) || !Number.isSafeInteger(index) || !isRecord(delta)) return encodeSseEvent(chunk);
  const type = delta.type;
  const keys = typeof type === 'string' && Object.hasOwn(DELTA_KEYS, type) ? DELTA_KEYS[type] : undefined;
  const text = keys && delta[keys[1]];
  if (typeof text !== 'string' || !keysAre(delta, keys!)) return encodeSseEvent(chunk);
  return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${String(index)},"delta":{"type":"${type as string}","${keys![1]}":${JSON.stringify(text)}}}\n\n`;
}
