/**
 * A Responses stream's frames. `response.created`, `.in_progress` and
 * `.completed` each repeat the caller's tools, which for a coding agent are
 * 30 KB of schemas: they are written as JSON once per stream (the three share
 * one array) and spliced into each frame, not stringified three times.
 */
import { randomUUID } from 'node:crypto';
import { isRecord } from '../../model/is-record.js';
import { encodeSseEvent } from '../../streaming/encode-sse.js';

/** Stands for the tools while the rest of the frame is written: unguessable, so no caller's text is ever taken for it. */
const HOLE_VALUE = `tools-${randomUUID()}`;
const HOLE = JSON.stringify(HOLE_VALUE);

const toolsJson = new WeakMap<readonly unknown[], string>();

/** The same text as `encodeSseEvent(chunk)`. */
export function responsesEventFrame(chunk: Record<string, unknown>): string {
  const response = chunk.response;
  if (!isRecord(response) || !Array.isArray(response.tools) || response.tools.length === 0) return encodeSseEvent(chunk);
  let tools = toolsJson.get(response.tools);
  if (tools === undefined) {
    tools = JSON.stringify(response.tools);
    toolsJson.set(response.tools, tools);
  }
  const data = JSON.stringify({ ...chunk, response: { ...response, tools: HOLE_VALUE } });
  const at = data.indexOf(`"tools":${HOLE}`) + '"tools":'.length;
  return `event: ${String(chunk.type)}\ndata: ${data.slice(0, at)}${tools}${data.slice(at + HOLE.length)}\n\n`;
}
