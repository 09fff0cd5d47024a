/**
 * The warm-up's upstream (warm-up.ts): a loopback server that answers as the
 * remote kinds' servers do, in OpenAI's chat and completions shapes and in
 * Anthropic's Messages shape and Gemini's generateContent shape, as one JSON body or as a stream of a few tokens,
 * each its own write. It exists so that no synthetic request ever reaches a
 * real backend, which could cost its owner money.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback } from './loopback-server.js';

const TOKENS = [' Hello', ',', ' world', '.', ' Warm', ' up', ' done', '.'];
const USAGE = { prompt_tokens: 8, completion_tokens: TOKENS.length, total_tokens: 8 + TOKENS.length };
const CREATED = 1_700_000_000;

export interface CannedUpstream {
  /** The base URL a backend's `url` points at (`http://127.0.0.1:port/v1`). */
  url: string;
  close(): Promise<void>;
}

export async function startCannedUpstream(): Promise<CannedUpstream> {
  const server = createServer((req, res) => void answer(req, res));
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}/v1`, close: () => closeServer(server) };
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body: { stream?: unknown; model?: unknown } = {};
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
  } catch {
    // Answered below all the same: the warm-up only needs the proxy's side to run.
  }
  const path = req.url ?? '';
  // Gemini names the model and the stream in the path, not the body.
  const gemini = /\/models\/([^/:]+):(generateContent|streamGenerateContent)/.exec(path);
  const model = gemini ? decodeURIComponent(gemini[1]) : typeof body.model === 'string' ? body.model : 'warm-up';
  if (gemini) body.stream = gemini[2] === 'streamGenerateContent';
  const shape = gemini
    ? GEMINI
    : path.endsWith('/messages')
      ? MESSAGES
      : path.endsWith('/chat/completions')
        ? CHAT
        : path.endsWith('/completions')
          ? COMPLETIONS
          : undefined;
  if (!shape) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"invalid_request_error"}}');
    return;
  }
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(shape.result(model)));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const frame of shape.stream(model)) res.write(frame);
  res.end();
}

interface Shape {
  result(model: string): Record<string, unknown>;
  stream(model: string): string[];
}

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const named = (value: { type: string } & Record<string, unknown>) => `event: ${value.type}\n${data(value)}`;

const CHAT: Shape = {
  result: (model) => ({
    id: 'chatcmpl-warm-up',
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: TOKENS.join('') }, logprobs: null, finish_reason: 'stop' }],
    usage: USAGE,
  }),
  stream: (model) => {
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      data({
        id: 'chatcmpl-warm-up',
        object: 'chat.completion.chunk',
        created: CREATED,
        model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      });
    return [
      chunk({ role: 'assistant', content: '' }, null),
      ...TOKENS.map((token) => chunk({ content: token }, null)),
      chunk({}, 'stop'),
      data({ id: 'chatcmpl-warm-up', object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: USAGE }),
      'data: [DONE]\n\n',
    ];
  },
};

const COMPLETIONS: Shape = {
  result: (model) => ({
    id: 'cmpl-warm-up',
    object: 'text_completion',
    created: CREATED,
    model,
    choices: [{ index: 0, text: TOKENS.join(''), logprobs: null, finish_reason: 'stop' }],
    usage: USAGE,
  }),
  stream: (model) => {
    const chunk = (text: string, finish: string | null) =>
      data({
        id: 'cmpl-warm-up',
        object: 'text_completion',
        created: CREATED,
        model,
        choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
      });
    return [
      ...TOKENS.map((token) => chunk(token, null)),
      chunk('', 'stop'),
      data({ id: 'cmpl-warm-up', object: 'text_completion', created: CREATED, model, choices: [], usage: USAGE }),
      'data: [DONE]\n\n',
    ];
  },
};

const MESSAGES: Shape = {
  result: (model) => ({
    id: 'msg_warm_up',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: TOKENS.join('') }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: USAGE.prompt_tokens, output_tokens: USAGE.completion_tokens },
  }),
  stream: (model) => [
    named({
      type: 'message_start',
      message: {
        id: 'msg_warm_up',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: USAGE.prompt_tokens, output_tokens: 1 },
      },
    }),
    named({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...TOKENS.map((text) => named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
    named({ type: 'content_block_stop', index: 0 }),
    named({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: USAGE.completion_tokens },
    }),
    named({ type: 'message_stop' }),
  ],
};

/** Gemini's GenerateContentResponse: one whole, or one per token (`alt=sse`), the last with the finish and the usage. */
const GEMINI: Shape = {
  result: (model) => gemini(model, TOKENS.join(''), true),
  stream: (model) => TOKENS.map((token, i) => data(gemini(model, token, i === TOKENS.length - 1))),
};

function gemini(model: string, text: string, last: boolean): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    ...(last
      ? {
          usageMetadata: {
            promptTokenCount: USAGE.prompt_tokens,
            candidatesTokenCount: USAGE.completion_tokens,
            totalTokenCount: USAGE.total_tokens,
          },
        }
      : {}),
    modelVersion: model,
    responseId: 'warm-up',
  };
}
