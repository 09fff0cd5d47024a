/**
 * Bench upstream: a fast OpenAI-compatible server with canned answers, run in
 * its own process. Prints its port on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const created = 1700000000;
const chatResult = JSON.stringify({
  id: 'chatcmpl-bench', object: 'chat.completion', created, model: 'bench',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Once upon a time there was a little benchmark.' }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 },
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model: 'bench', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
const words = Array.from({ length: 32 }, (_, i) => ` word${i}`);
const chatStream = [
  chunk({ role: 'assistant', content: '' }),
  ...words.map((word) => chunk({ content: word })),
  chunk({}, 'stop'),
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model: 'bench', choices: [], usage: { prompt_tokens: 12, completion_tokens: 32, total_tokens: 44 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (data: Buffer) => chunks.push(data));
  req.on('end', () => {
    const stream = Buffer.concat(chunks).includes('"stream":true');
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chatStream);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(chatResult);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(String((server.address() as AddressInfo).port));
});
