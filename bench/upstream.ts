/**
 * Bench upstream: a fast OpenAI-compatible server with canned answers, run in
 * its own process. `/v1/completions` answers in Fireworks' completions shape
 * (`text_completion` chunks), a path under `/anthropic/` in Anthropic's
 * Messages shape (for a backend or a peer that calls `{url}/messages` of an
 * Anthropic base URL; `/v1/messages` itself stays chat-shaped, as the agent
 * turns piped by hpm expect), every other path in OpenAI's chat shape.
 * Prints its port on stdout.
 *
 * `upstream.js [tokens] [intervalMs] [events]`: a stream carries `tokens`
 * tokens (32 by default); with an interval, they leave `intervalMs` apart like
 * a model generating (the first at once, the end with the last), else all in
 * one write. With `events` (the bench's pacing probe), every event is its own
 * write, `intervalMs` apart: the opening role chunk leaves alone at once, as a
 * model server sends it before the first token, then each token.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const tokens = Number(process.argv[2] ?? 32);
const intervalMs = Number(process.argv[3] ?? 0);
const eachEventApart = process.argv[4] === 'events';

const created = 1700000000;
const chatResult = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created,
  model: 'bench',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Once upon a time there was a little benchmark.' },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 },
});
const completionResult = JSON.stringify({
  id: 'cmpl-bench',
  object: 'text_completion',
  created,
  model: 'bench',
  choices: [{ index: 0, text: 'Once upon a time there was a little benchmark.', logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 },
});
const messagesResult = JSON.stringify({
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'bench',
  content: [{ type: 'text', text: 'Once upon a time there was a little benchmark.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 12, output_tokens: 10 },
});
const usage = { prompt_tokens: 12, completion_tokens: tokens, total_tokens: 12 + tokens };
const words = Array.from({ length: tokens }, (_, i) => ` word${i}`);
const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

/** A stream's writes, one per token: the opening frames ride with the first token, the closing ones with the last. */
interface Stream {
  head: string;
  tokens: string[];
  tail: string;
}

const chatChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  frame({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created,
    model: 'bench',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
const chatStream: Stream = {
  head: chatChunk({ role: 'assistant', content: '' }),
  tokens: words.map((word) => chatChunk({ content: word })),
  tail:
    chatChunk({}, 'stop') +
    frame({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model: 'bench', choices: [], usage }) +
    'data: [DONE]\n\n',
};

const completionChunk = (text: string, finish: string | null = null) =>
  frame({
    id: 'cmpl-bench',
    object: 'text_completion',
    created,
    model: 'bench',
    choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
  });
const completionStream: Stream = {
  head: '',
  tokens: words.map((word) => completionChunk(word)),
  tail:
    completionChunk('', 'stop') +
    frame({ id: 'cmpl-bench', object: 'text_completion', created, model: 'bench', choices: [], usage }) +
    'data: [DONE]\n\n',
};
/** Anthropic's events: each named on an `event:` line, its type again in the data. */
const event = (value: { type: string } & Record<string, unknown>) => `event: ${value.type}\n${frame(value)}`;
const messagesStream: Stream = {
  head:
    event({
      type: 'message_start',
      message: { ...(JSON.parse(messagesResult) as object), content: [], stop_reason: null, usage: { input_tokens: 12, output_tokens: 1 } },
    }) + event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  tokens: words.map((word) => event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } })),
  tail:
    event({ type: 'content_block_stop', index: 0 }) +
    event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: tokens } }) +
    event({ type: 'message_stop' }),
};
/** A paced stream's writes, `intervalMs` apart: the opening frames with the first token (or alone, with `events`), the closing ones with the last. */
function paced({ head, tokens: parts, tail }: Stream): string[] {
  const writes = eachEventApart ? [head, ...parts].filter(Boolean) : [head + (parts[0] ?? ''), ...parts.slice(1)];
  writes[writes.length - 1] += tail;
  return writes;
}
/** A reply of each shape: whole, and a stream's writes. */
const shape = (result: string, stream: Stream) => {
  const writes = paced(stream);
  return { result, writes, whole: writes.join('') };
};
const shapes = {
  chat: shape(chatResult, chatStream),
  completions: shape(completionResult, completionStream),
  messages: shape(messagesResult, messagesStream),
};
const shapeOf = (url = '') =>
  url.endsWith('/v1/completions') ? shapes.completions : url.startsWith('/anthropic/') ? shapes.messages : shapes.chat;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (data: Buffer) => chunks.push(data));
  req.on('end', () => {
    const { result, writes, whole } = shapeOf(req.url);
    const stream = Buffer.concat(chunks).includes('"stream":true');
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(result);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (!(intervalMs > 0) || writes.length < 2) {
      res.end(whole);
      return;
    }
    res.write(writes[0]);
    let next = 1;
    const timer = setInterval(() => {
      if (next === writes.length - 1) {
        clearInterval(timer);
        res.end(writes[next]);
      } else {
        res.write(writes[next]);
      }
      next += 1;
    }, intervalMs);
    res.on('close', () => clearInterval(timer)); // the caller left: stop generating
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(String((server.address() as AddressInfo).port));
});
