/**
 * Traces switched on by the config's `telemetry` section (no OTEL_* variable):
 * http/json to its endpoint, its service name, and `captureContent`, the
 * opt-in for prompt and completion text as the GenAI conventions' message
 * attributes (for a whole answer and for a stream).
 */
import { createLogger } from '../../src/logging/logger.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startFaultUpstream, type FaultUpstream } from '../helpers/fault-upstream.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';

const created = 1_700_000_000;
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-s', object: 'chat.completion.chunk', created, model: 'up', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

let receiver: OtlpReceiver;
let upstream: FaultUpstream;
let proxy: RunningServer;
const otelEnv: Record<string, string | undefined> = {};

beforeAll(async () => {
  // Whatever the developer's shell says, this test is about the section alone.
  for (const name of Object.keys(process.env).filter((key) => key.startsWith('OTEL_'))) {
    otelEnv[name] = process.env[name];
    delete process.env[name];
  }
  process.env.OTEL_BSP_SCHEDULE_DELAY = '20';
  receiver = await startOtlpReceiver();
  upstream = await startFaultUpstream((request) =>
    (request.body as { stream?: boolean }).stream
      ? { sse: [chunk({ role: 'assistant', content: 'Streamed ' }), chunk({ content: 'reply' }), chunk({}, 'stop'), 'data: [DONE]\n\n'] }
      : {
          json: {
            id: 'chatcmpl-j',
            object: 'chat.completion',
            created,
            model: 'up',
            choices: [{ index: 0, message: { role: 'assistant', content: 'Whole reply' }, logprobs: null, finish_reason: 'stop' }],
            usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
          },
        },
  );
  const config = loadConfig({
    backends: { up: { kind: 'openai', url: upstream.url } },
    routes: [{ model: '*', backend: 'up' }],
    telemetry: { endpoint: receiver.url, protocol: 'http/json', serviceName: 'from-yaml', captureContent: true },
  });
  proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
});

afterAll(async () => {
  await proxy?.close();
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
  for (const [name, value] of Object.entries(otelEnv)) if (value !== undefined) process.env[name] = value;
  await Promise.all([receiver?.close(), upstream?.close()]);
});

async function serverSpan(response: Response): Promise<ReceivedSpan> {
  const id = response.headers.get('x-request-id');
  const [span] = await receiver.waitFor((spans) => spans.filter((candidate) => candidate.attributes['dialect_proxy.request_id'] === id));
  return span!;
}

const chat = (body: Record<string, unknown>) =>
  fetch(`${proxy.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say something' },
      ],
      ...body,
    }),
  });

test('a whole answer: the input and output messages in the conventions shape, over http/json, under the configured service name', async () => {
  const response = await chat({});
  expect(response.status).toBe(200);
  const span = await serverSpan(response);
  expect(JSON.parse(span.attributes['gen_ai.input.messages'] as string)).toEqual([
    { role: 'user', parts: [{ type: 'text', content: 'Say something' }] },
  ]);
  expect(JSON.parse(span.attributes['gen_ai.system_instructions'] as string)).toEqual([{ type: 'text', content: 'Be brief.' }]);
  expect(JSON.parse(span.attributes['gen_ai.output.messages'] as string)).toEqual([
    { role: 'assistant', parts: [{ type: 'text', content: 'Whole reply' }], finish_reason: 'stop' },
  ]);
  expect(span.resource['service.name']).toBe('from-yaml');
  expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
});

test('a stream: the output message is the streamed text, joined', async () => {
  const response = await chat({ stream: true });
  await response.text();
  const span = await serverSpan(response);
  expect(JSON.parse(span.attributes['gen_ai.output.messages'] as string)).toEqual([
    { role: 'assistant', parts: [{ type: 'text', content: 'Streamed reply' }], finish_reason: 'stop' },
  ]);
  expect(span.attributes['gen_ai.response.id']).toBe('chatcmpl-s');
});

test("a caller's long model name is cut at 256 bytes on the span, marked with its length", async () => {
  const model = 'm'.repeat(5000);
  const response = await chat({ model });
  const span = await serverSpan(response);
  expect(span.name).toBe(`chat ${'m'.repeat(256)}…[truncated: 5000 chars]`);
  expect(span.attributes['gen_ai.request.model']).toBe(`${'m'.repeat(256)}…[truncated: 5000 chars]`);
});
