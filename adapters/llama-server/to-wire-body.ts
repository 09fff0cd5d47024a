/**
 * NeutralRequest -> a body for llama.cpp's server (`llama-server`): `/v1/chat/completions` for chat,
 * `/v1/completions` for text, with its own sampling fields beside OpenAI's (fields.ts).
 */
import type { NeutralRequest } from '../../src/model/request.js';
import { compatibleWireBody, type WireBodySpec } from '../openai/compatible-wire-body.js';
import { llamaServerTable } from './fields.js';

export interface LlamaServerWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
  /** The server runs with `--jinja`, so `tools` and `tool_choice` work (without it they are an HTTP 500). */
  jinja?: boolean;
}

const body = (jinja: boolean): WireBodySpec => ({
  backend: 'llama-server',
  table: llamaServerTable({ jinja }),
  reasoning: true,
  unsupportedParts: new Set(['video', 'file', 'refusal']),
});
const BODIES = { jinja: body(true), plain: body(false) };

/**
 * @example
 * toWireBody({...emptyRequest('text', 'stories260K'), prompt: 'Once', sampling: {topK: 40, repetitionPenalty: 1.1}})
 * // {model: 'stories260K', prompt: 'Once', top_k: 40, repeat_penalty: 1.1}
 */
export function toWireBody(request: NeutralRequest, options: LlamaServerWireOptions = {}): Record<string, unknown> {
  return compatibleWireBody(request, options.jinja ? BODIES.jinja : BODIES.plain, options.stream);
}
