/**
 * The frames streamed most, written without JSON.stringify of the whole
 * chunk: a chat chunk's text or reasoning delta, a completion chunk's text.
 * Only the text is stringified; the rest of the frame is the same for every
 * chunk of a stream and is kept. Any other chunk goes to encodeSseData. For
 * the chunks the dialects' serializers build (plain JSON data) a frame equals
 * encodeSseData's byte for byte: a property test checks it.
 */
import { encodeSseData } from './encode-sse.js';
import { isRecord } from '../model/is-record.js';

type Chunk = Record<string, unknown>;

const CHAT_KEYS = ['id', 'object', 'created', 'model', 'choices'];
const CHAT_KEYS_FINGERPRINT = ['id', 'object', 'created', 'model', 'system_fingerprint', 'choices'];
const COMPLETION_KEYS = CHAT_KEYS;
const CHAT_CHOICE_KEYS = ['index', 'delta', 'logprobs', 'finish_reason'];
const COMPLETION_CHOICE_KEYS = ['index', 'text', 'logprobs', 'finish_reason'];
const NOTHING = Symbol('nothing');

/** `data: {"id":…,"choices":[{"index":`, for the head values last seen (interleaved streams rebuild it: a few stringified strings). */
class HeadCache {
  // No chunk's values equal these before the first head is kept.
  private id: unknown = NOTHING;
  private object: unknown = NOTHING;
  private created: unknown = NOTHING;
  private model: unknown = NOTHING;
  private fingerprint: unknown = NOTHING;
  private opening = '';

  /** The frame's opening, or undefined when a head value is not a string (or `created` not a safe integer). */
  openingOf(chunk: Chunk, withFingerprint: boolean): string | undefined {
    const { id, object, created, model } = chunk;
    const fingerprint = withFingerprint ? chunk.system_fingerprint : undefined;
    if (id === this.id && object === this.object && created === this.created && model === this.model && fingerprint === this.fingerprint) return this.opening;
    if (typeof id !== 'string' || typeof object !== 'string' || !Number.isSafeInteger(created) || typeof model !== 'string') return undefined;
    if (withFingerprint && typeof fingerprint !== 'string') return undefined;
    const members = `"id":${JSON.stringify(id)},"object":${JSON.stringify(object)},"created":${String(created)},"model":${JSON.stringify(model)}`;
    this.opening = `data: {${members}${withFingerprint ? `,"system_fingerprint":${JSON.stringify(fingerprint)}` : ''},"choices":[{"index":`;
    Object.assign(this, { id, object, created, model, fingerprint });
    return this.opening;
  }
}

const chatHeads = new HeadCache();
const completionHeads = new HeadCache();

/** A `chat.completion.chunk`'s frame: fast for one choice's `{content}` or `{reasoning_content}` delta (usage: null or absent). */
export function encodeChatChunkFrame(chunk: Chunk): string {
  const keys = Object.keys(chunk);
  const withFingerprint = keys[4] === 'system_fingerprint';
  const head = withFingerprint ? CHAT_KEYS_FINGERPRINT : CHAT_KEYS;
  const withUsage = keys.length === head.length + 1 && keys[head.length] === 'usage' && chunk.usage === null;
  if (!startsWithKeys(keys, head, withUsage ? 1 : 0)) return encodeSseData(chunk);
  const choice = onlyChoice(chunk.choices, CHAT_CHOICE_KEYS);
  const delta = choice?.delta;
  if (!isRecord(delta)) return encodeSseData(chunk);
  const deltaKeys = Object.keys(delta);
  const key = deltaKeys.length === 1 ? deltaKeys[0] : undefined;
  const text = key === 'content' || key === 'reasoning_content' ? delta[key] : undefined;
  const opening = typeof text === 'string' ? chatHeads.openingOf(chunk, withFingerprint) : undefined;
  if (opening === undefined) return encodeSseData(chunk);
  return `${opening}${String(choice!.index)},"delta":{"${key!}":${JSON.stringify(text)}},"logprobs":null,"finish_reason":null}]${withUsage ? ',"usage":null' : ''}}\n\n`;
}

/** A `text_completion` chunk's frame: fast for one choice's text. */
export function encodeCompletionChunkFrame(chunk: Chunk): string {
  const keys = Object.keys(chunk);
  if (!startsWithKeys(keys, COMPLETION_KEYS, 0)) return encodeSseData(chunk);
  const choice = onlyChoice(chunk.choices, COMPLETION_CHOICE_KEYS);
  const text = choice?.text;
  const opening = typeof text === 'string' ? completionHeads.openingOf(chunk, false) : undefined;
  if (opening === undefined) return encodeSseData(chunk);
  return `${opening}${String(choice!.index)},"text":${JSON.stringify(text)},"logprobs":null,"finish_reason":null}]}\n\n`;
}

/** `keys` are `expected` followed by exactly `extra` more. */
function startsWithKeys(keys: readonly string[], expected: readonly string[], extra: number): boolean {
  if (keys.length !== expected.length + extra) return false;
  for (let i = 0; i < expected.length; i++) if (keys[i] !== expected[i]) return false;
  return true;
}

/** The only choice, when it has exactly these keys, an integer index, and null logprobs and finish_reason. */
function onlyChoice(choices: unknown, keys: readonly string[]): Chunk | undefined {
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice: unknown = choices[0];
  if (!isRecord(choice) || !startsWithKeys(Object.keys(choice), keys, 0)) return undefined;
  return Number.isSafeInteger(choice.index) && choice.logprobs === null && choice.finish_reason === null ? choice : undefined;
}
