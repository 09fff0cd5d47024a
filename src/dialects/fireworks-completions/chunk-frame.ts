/** A `text_completion` chunk's SSE frame, fast for the chunks streamed most (src/streaming/frame-head.ts; docs/performance.md). */
import { encodeSseData } from '../../streaming/encode-sse.js';
import { FrameHeads, keysAre, onlyChoice } from '../../streaming/frame-head.js';

type Chunk = Record<string, unknown>;

const COMPLETION_KEYS = ['id', 'object', 'created', 'model', 'choices'];
const COMPLETION_CHOICE_KEYS = ['index', 'text', 'logprobs', 'finish_reason'];

// One per process: interleaved streams rebuild the head (a few stringified strings).
const completionHeads = new FrameHeads();

/** A `text_completion` chunk's frame: fast for one choice's text. */
export function encodeCompletionChunkFrame(chunk: Chunk): string {
  if (!keysAre(chunk, COMPLETION_KEYS)) return encodeSseData(chunk);
  const choice = onlyChoice(chunk.choices, COMPLETION_CHOICE_KEYS);
  const text = choice?.text;
  const opening = typeof text === 'string' ? completionHeads.openingOf(chunk, false) : undefined;
  if (opening === undefined) return encodeSseData(chunk);
  return `${opening}${String(choice!.index)},"text":${JSON.stringify(text)},"logprobs":null,"finish_reason":null}]}\n\n`;
}
