/** SSE framing as both specs use it: `data: <json>\n\n` frames, `data: [DONE]` last. */
export function encodeSseData(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

export const sseDone = 'data: [DONE]\n\n';

/** `data:` frames and `[DONE]`, as OpenAI chat and Fireworks send them. */
export const dataFraming = { frame: encodeSseData, end: sseDone } as const;

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
