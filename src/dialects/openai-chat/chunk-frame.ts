/** A `chat.completion.chunk`'s SSE frame, fast for the chunks streamed most (src/streaming/frame-head.ts; docs/performance.md). */
import { isRecord } from '../../model/is-record.js';
import { encodeSseData } from '../../streaming/encode-sse.js';
import { FrameHeads, keysAre, onlyChoice, onlyKey } from '../../streaming/frame-head.js';

type Chunk = Record<string, unknown>;

const CHAT_KEYS = ['id', 'object', 'created', 'model', 'choices'];
const CHAT_KEYS_FINGERPRINT = ['id', 'object', 'created', 'model', 'system_fingerprint', 'choices'];
const CHAT_CHOICE_KEYS = ['index', 'delta', 'logprobs', 'finish_reason'];

// One per process: interleaved streams rebuild the head (a few stringified strings).
const chatHeads = new FrameHeads();

/** A `chat.completion.chunk`'s frame: fast for one choice's `{content}` or `{reasoning_content}` delta (usage: null or absent). */
export function encodeChatChunkFrame(chunk: Chunk): string {
  const withFingerprint = chunk.system_fingerprint !== undefined;
  // `usage: null` may follow (stream_options.include_usage); a chunk with usage itself is framed whole.
  if (!keysAre(chunk, withFingerprint ? CHAT_KEYS_FINGERPRINT : CHAT_KEYS, 'usage')) return encodeSseData(chunk);
  const withUsage = 'usage' in chunk;
  if (withUsage && chunk.usage !== null) return encodeSseData(chunk);
  const choice = onlyChoice(chunk.choices, CHAT_CHOICE_KEYS);
  const delta = choice?.delta;
  if (!isRecord(delta)) return encodeSseData(chunk);
  const key = onlyKey(delta);
  const text = key === 'content' || key === 'reasoning_content' ? delta[key] : undefined;
  const opening = typeof text === 'string' ? chatHeads.openingOf(chunk, withFingerprint) : undefined;
  if (opening === undefined) return encodeSseData(chunk);
  return `${opening}${String(choice!.index)},"delta":{"${key!}":${JSON.stringify(text)}},"logprobs":null,"finish_reason":null}]${withUsage ? ',"usage":null' : ''}}\n\n`;
}
