/**
 * The fast path of the frames streamed most (docs/performance.md, "Frames"):
 * an OpenAI-style chunk's frame built without JSON.stringify of the whole
 * chunk. Only the text is stringified; the head (`id`, `object`, `created`,
 * `model`) is the same for every chunk of a stream and is kept. The dialects
 * that stream such chunks (openai-chat/chunk-frame.ts,
 * fireworks-completions/chunk-frame.ts) say which keys their chunks have; any
 * other chunk goes to encodeSseData, and a property test checks that a frame
 * equals encodeSseData's byte for byte.
 */
import { isRecord } from '../model/is-record.js';

type Chunk = Record<string, unknown>;

const NOTHING = Symbol('nothing');

/** `data: {"id":…,"choices":[{"index":`, for the head values last seen (interleaved streams rebuild it: a few stringified strings). */
export class FrameHeads {
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
    if (id === this.id && object === this.object && created === this.created && model === this.model && fingerprint === this.fingerprint)
      return this.opening;
    if (typeof id !== 'string' || typeof object !== 'string' || !Number.isSafeInteger(created) || typeof model !== 'string')
      return undefined;
    if (withFingerprint && typeof fingerprint !== 'string') return undefined;
    const members = `"id":${JSON.stringify(id)},"object":${JSON.stringify(object)},"created":${String(created)},"model":${JSON.stringify(model)}`;
    this.opening = `data: {${members}${withFingerprint ? `,"system_fingerprint":${JSON.stringify(fingerprint)}` : ''},"choices":[{"index":`;
    Object.assign(this, { id, object, created, model, fingerprint });
    return this.opening;
  }
}

/**
 * The record's keys, in order, are `expected`, or `expected` then `optional`. Read with for-in, which
 * allocates nothing where Object.keys makes an array for every chunk of every stream.
 */
export function keysAre(record: Chunk, expected: readonly string[], optional?: string): boolean {
  let count = 0;
  for (const key in record) {
    if (count < expected.length ? key !== expected[count] : count > expected.length || key !== optional) return false;
    count++;
  }
  return count === expected.length || (optional !== undefined && count === expected.length + 1);
}

/** The only choice, when it has exactly these keys, an integer index, and null logprobs and finish_reason. */
export function onlyChoice(choices: unknown, keys: readonly string[]): Chunk | undefined {
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice: unknown = choices[0];
  if (!isRecord(choice) || !keysAre(choice, keys)) return undefined;
  return Number.isSafeInteger(choice.index) && choice.logprobs === null && choice.finish_reason === null ? choice : undefined;
}

/** The record's only key, if it has exactly one. */
export function onlyKey(record: Chunk): string | undefined {
  let only: string | undefined;
  for (const key in record) {
    if (only !== undefined) return undefined;
    only = key;
  }
  return only;
}
