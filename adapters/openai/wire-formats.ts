/** OpenAI wire shapes that Fireworks, vLLM and llama-server take as well. */
import type { ResponseFormat } from '../../src/model/request.js';

type Wire = Record<string, unknown>;

/**
 * OpenAI's `{type: 'json_schema', json_schema: {name, schema, ...}}`, which Fireworks takes too.
 * The wrapper requires a name; callers of Fireworks' bare-schema shape give none, so it is 'response'.
 */
export function jsonSchemaFormat(format: Extract<ResponseFormat, { type: 'json_schema' }>): Wire {
  const spec: Wire = { name: format.name ?? 'response', schema: format.schema };
  if (format.description !== undefined) spec.description = format.description;
  if (format.strict !== undefined) spec.strict = format.strict;
  return { type: 'json_schema', json_schema: spec };
}

/** The proxy always asks for usage on a stream so it can log it. */
export function withStream(body: Wire, stream: boolean, options: Wire = {}): Wire {
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true, ...options };
  }
  return body;
}
