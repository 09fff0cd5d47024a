/**
 * Bench upstream: a fast OpenAI-compatible server with canned answers, run in
 * its own process. `/v1/completions` answers in Fireworks' completions shape
 * (`text_completion` chunks), every other path in OpenAI's chat shape.
 * Prints its port on stdout.
 *
 * `upstream.js [tokens] [intervalMs]`: a stream carries `tokens` tokens (32 by
 * default); with an interval, they leave `intervalMs` apart like a model
 * generating (the first at once, the end with the last), else all in one write.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const tokens = Number(process.argv[2] ?? 32);
const intervalMs = Number(process.argv[3] ?? 0);

const created = 1700000000;
const chatResult = JSON.stringify({
  id: 'chatcmpl-bench', object: 'chat.completion', created, model: 'bench',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Once upon a time there was a little benchmark.' }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 },
});
const completionResult = JSON.stringify({
  id: 'cmpl-bench', object: 'text_completion', created, model: 'bench',
  choices: [{ index: 0, text: 'Once upon a time there was a little benchmark.', logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 },
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
  frame({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model: 'bench', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
const chatStream: Stream = {
  head: chatChunk({ role: 'assistant', content: '' }),
  tokens: words.map((word) => chatChunk({ content: word })),
  tail: chatChunk({}, 'stop') + frame({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model: 'bench', choices: [], usage }) + 'data: [DONE]\n\n',
};

const completionChunk = (text: string, finish: string | null = null) =>
  frame({ id: 'cmpl-bench', object: 'text_completion', created, model: 'bench', choices: [{ index: 0, text, logprobs: null, finish_reason: finish }] });
const completionStream: Stream = {
  head: '',
  tokens: words.map((word) => completionChunk(word)),
  tail: completionChunk('', 'stop') + frame({ id: 'cmpl-bench', object: 'text_completion', created, model: 'bench', choices: [], usage }) + 'data: [DONE]\n\n',
};
const whole = (stream: Stream) => stream.head + stream.tokens.join('') + stream.tail;
const chatWhole = whole(chatStream);
const completionWhole = whole(completionStream);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (data: Buffer) => chunks.push(data));
  req.on('end', () => {
    const completions = req.url?.endsWith('/v1/completions') ?? false;
    const stream = Buffer.concat(chunks).includes('"stream":true');
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completions ? completionResult : chatResult);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (!(intervalMs > 0) || tokens < 2) {
      res.end(completions ? completionWhole : chatWhole);
      return;
    }
    const { head, tokens: parts, tail } = completions ? completionStream : chatStream;
    res.write(head + parts[0]);
    let next = 1;
    const timer = setInterval(() => {
      if (next === parts.length - 1) {
        clearInterval(timer);
        res.end(parts[next] + tail);
      } else {
        res.write(parts[next]);
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
