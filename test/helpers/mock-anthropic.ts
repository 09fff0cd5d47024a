/**
 * A strict stand-in for Anthropic's Messages API on 127.0.0.1: `POST /v1/messages`
 * only, with Anthropic's checks and error shape (`{type: 'error', error: {type,
 * message}}`): no `x-api-key` (or an `Authorization` header instead) is a 401,
 * no `anthropic-version` a 400, and so are a top-level key the API does not
 * know (or a beta field without its beta in `anthropic-beta`), no
 * `max_tokens`, a role other than user and assistant, a content block
 * of an unknown type, a thinking budget under 1024 or not under `max_tokens`,
 * and a temperature above 1. Every request is recorded; the answer comes from a
 * script: a message as JSON, named SSE events, or an error.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordRequest, type RecordedRequest } from './mock-upstream.js';

export type AnthropicReply =
  /** A `message` (anthropicMessage() fills what is left out). */
  | { message: Record<string, unknown>; headers?: Record<string, string> }
  /** SSE events, each `{type, ...}` (sent as `event: <type>`), optionally in timed pieces. */
  | { events: Record<string, unknown>[]; delayMs?: number }
  /** An error in Anthropic's shape. */
  | { status: number; error: { type: string; message: string }; headers?: Record<string, string> };

export type AnthropicScript = AnthropicReply | ((request: RecordedRequest, index: number) => AnthropicReply);

export interface MockAnthropic {
  /** The API base, ending in /v1. */
  url: string;
  /** Every request received, refused ones included. */
  requests: RecordedRequest[];
  reply(script: AnthropicScript): void;
  close(): Promise<void>;
}

/** The top-level fields of `POST /v1/messages` (MessageCreateParams, beta fields included). */
const TOP_LEVEL = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'service_tier',
  'context_management',
  'cache_control',
  'container',
  'mcp_servers',
  'inference_geo',
  'speed',
  'diagnostics',
]);

const BLOCKS = new Set(['text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking']);

/** Top-level fields the API takes only under a beta named in `anthropic-beta` (by the beta's prefix), as Claude Code sends them. */
const BETA_FIELDS: Readonly<Record<string, string>> = { context_management: 'context-management-' };

/** A whole `message` answer: `partial` over a one-text-block answer that ended its turn. */
export function anthropicMessage(partial: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [{ type: 'text', text: 'Hello!' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 3, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    ...partial,
  };
}

/** The SSE events of a streamed message: start, one block per piece of `text`, the stop, usage and the end. */
export function textStream(
  pieces: string[],
  stop: { reason?: string; sequence?: string | null; output?: number } = {},
): Record<string, unknown>[] {
  return [
    {
      type: 'message_start',
      message: { ...anthropicMessage({ content: [], stop_reason: null }), usage: { input_tokens: 10, output_tokens: 1 } },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'ping' },
    ...pieces.map((text) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: stop.reason ?? 'end_turn', stop_sequence: stop.sequence ?? null },
      usage: { output_tokens: stop.output ?? pieces.length },
    },
    { type: 'message_stop' },
  ];
}

/** Named SSE events as Anthropic frames them. */
export function sseOf(events: Record<string, unknown>[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** What the real API would refuse in this request, as its status and error; undefined when it is well formed. */
export function refusal(request: RecordedRequest): { status: number; error: { type: string; message: string } } | undefined {
  const invalid = (message: string) => ({ status: 400, error: { type: 'invalid_request_error', message } });
  if (request.method !== 'POST' || request.path !== '/v1/messages')
    return { status: 404, error: { type: 'not_found_error', message: `Not found: ${request.method} ${request.path}` } };
  if (request.headers.authorization !== undefined)
    return { status: 401, error: { type: 'authentication_error', message: 'invalid x-api-key (Authorization sent instead)' } };
  if (!request.headers['x-api-key'])
    return { status: 401, error: { type: 'authentication_error', message: 'x-api-key header is required' } };
  if (!request.headers['anthropic-version']) return invalid('anthropic-version: header is required');
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return invalid('The request body is not valid JSON.');
  const wire = body as Record<string, unknown>;
  for (const key of Object.keys(wire)) if (!TOP_LEVEL.has(key)) return invalid(`${key}: Extra inputs are not permitted`);
  const betas = String(request.headers['anthropic-beta'] ?? '').split(',');
  for (const [key, beta] of Object.entries(BETA_FIELDS))
    if (key in wire && !betas.some((name) => name.trim().startsWith(beta))) return invalid(`${key}: Extra inputs are not permitted`);
  if (typeof wire.model !== 'string') return invalid('model: Field required');
  if (wire.max_tokens === undefined) return invalid('max_tokens: Field required');
  if (typeof wire.max_tokens !== 'number' || !Number.isInteger(wire.max_tokens) || wire.max_tokens < 1)
    return invalid('max_tokens: Input should be a valid integer greater than 0');
  if (!Array.isArray(wire.messages)) return invalid('messages: Field required');
  for (const [i, message] of (wire.messages as Record<string, unknown>[]).entries()) {
    if (message.role !== 'user' && message.role !== 'assistant')
      return invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (Array.isArray(message.content)) {
      for (const [j, block] of (message.content as Record<string, unknown>[]).entries()) {
        if (!BLOCKS.has(String(block.type)))
          return invalid(`messages.${i}.content.${j}.type: Input tag '${String(block.type)}' is not valid`);
        if (block.type === 'thinking' && typeof block.signature !== 'string')
          return invalid(`messages.${i}.content.${j}.thinking.signature: Field required`);
        if (block.type === 'tool_use' && (typeof block.input !== 'object' || block.input === null || Array.isArray(block.input)))
          return invalid(`messages.${i}.content.${j}.tool_use.input: Input should be a valid dictionary`);
      }
    } else if (typeof message.content !== 'string') return invalid(`messages.${i}.content: Field required`);
  }
  if (typeof wire.temperature === 'number' && (wire.temperature < 0 || wire.temperature > 1))
    return invalid('temperature: Input should be less than or equal to 1');
  const thinking = wire.thinking as Record<string, unknown> | undefined;
  if (thinking?.type === 'enabled') {
    const budget = thinking.budget_tokens;
    if (typeof budget !== 'number' || budget < 1024)
      return invalid('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    if (budget >= wire.max_tokens) return invalid('max_tokens must be greater than thinking.budget_tokens');
  }
  return undefined;
}

export async function startMockAnthropic(initial?: AnthropicScript): Promise<MockAnthropic> {
  let script: AnthropicScript | undefined = initial;
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const recorded = await recordRequest(req);
    const index = requests.push(recorded) - 1;
    const reply: AnthropicReply | undefined = refusal(recorded) ?? (typeof script === 'function' ? script(recorded, index) : script);
    if (!reply) {
      send(res, 500, { type: 'error', error: { type: 'api_error', message: 'no script' } });
      return;
    }
    if ('error' in reply) {
      send(res, reply.status, { type: 'error', error: reply.error }, reply.headers);
      return;
    }
    if ('message' in reply) {
      send(res, 200, anthropicMessage(reply.message), reply.headers);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of reply.events) {
      if (res.destroyed) return;
      res.write(sseOf([event]));
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    reply(next) {
      script = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_mock', ...headers });
  res.end(JSON.stringify(body));
}
