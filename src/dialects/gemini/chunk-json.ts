/**
 * A Gemini stream chunk framed (`head`, its JSON, `end`), fast for the chunks
 * streamed most: one candidate's one text (or thought) part. Only the text is
 * stringified, and the frame is one string made at once; the tail
 * (`modelVersion`, `responseId`) is the same for every chunk of a stream and
 * is kept (as chat's frames keep their head: src/streaming/frame-head.ts).
 * Any other chunk is JSON.stringify's; a property test checks both agree byte
 * for byte.
 */
import { isRecord } from '../../model/is-record.js';
import { keysAre } from '../../streaming/frame-head.js';

type Chunk = Record<string, unknown>;

const CHUNK_KEYS = ['candidates', 'modelVersion', 'responseId'];
const CANDIDATE_KEYS = ['content', 'index'];
const CONTENT_KEYS = ['parts', 'role'];
const TEXT_KEYS = ['text'];
const THOUGHT_KEYS = ['text', 'thought'];

// One per process: interleaved streams rebuild the tail (two stringified strings).
let tailOf = { modelVersion: '', responseId: '', tail: '' };

/** `head`, the chunk's JSON, `end`. @example framedChunk(chunk, 'data: ', '\r\n\r\n') */
export function framedChunk(chunk: Chunk, head: string, end: string): string {
  return textChunkFrame(chunk, head, end) ?? `${head}${JSON.stringify(chunk)}${end}`;
}

function textChunkFrame(chunk: Chunk, head: string, end: string): string | undefined {
  if (!keysAre(chunk, CHUNK_KEYS)) return undefined;
  const { candidates, modelVersion, responseId } = chunk;
  if (!Array.isArray(candidates) || candidates.length !== 1 || typeof modelVersion !== 'string' || typeof responseId !== 'string')
    return undefined;
  const candidate: unknown = candidates[0];
  if (!isRecord(candidate) || !keysAre(candidate, CANDIDATE_KEYS) || !Number.isSafeInteger(candidate.index)) return undefined;
  const content = candidate.content;
  if (!isRecord(content) || !keysAre(content, CONTENT_KEYS) || content.role !== 'model' || !Array.isArray(content.parts)) return undefined;
  if (content.parts.length !== 1) return undefined;
  const part: unknown = content.parts[0];
  if (!isRecord(part) || typeof part.text !== 'string') return undefined;
  const thought = part.thought === true && keysAre(part, THOUGHT_KEYS);
  if (!thought && !keysAre(part, TEXT_KEYS)) return undefined;
  if (tailOf.modelVersion !== modelVersion || tailOf.responseId !== responseId)
    tailOf = {
      modelVersion,
      responseId,
      tail: `,"modelVersion":${JSON.stringify(modelVersion)},"responseId":${JSON.stringify(responseId)}}`,
    };
  return `${head}{"candidates":[{"content":{"parts":[{"text":${JSON.stringify(part.text)}${thought ? ',"thought":true' : ''}}],"role":"model"},"index":${String(candidate.index)}}]${tailOf.tail}${end}`;
}
