/** SSE framing as both specs use it: `data: <json>\n\n` frames, `data: [DONE]` last. */
export function encodeSseData(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

export const sseDone = 'data: [DONE]\n\n';

/** How a dialect frames its stream: how a chunk becomes a frame, and what is written after the last. */
export interface SseFraming<Chunk = Record<string, unknown>> {
  frame(chunk: Chunk): string;
  /** Written after the last frame ('' for none). */
  readonly end: string;
  /** Written while the stream is silent: an SSE comment (sseKeepAliveComment) unless the dialect has its own (Anthropic's `ping` event). */
  readonly keepAlive?: string;
  /** The answer's headers, where they are not SSE's (Gemini's stream as one JSON array). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A named event (`event: <type>`), as the Responses API sends every event. */
export function encodeSseEvent(chunk: Record<string, unknown>): string {
  return `event: ${String(chunk.type)}\ndata: ${JSON.stringify(chunk)}\n\n`;
}

export const sseHeaders: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};
