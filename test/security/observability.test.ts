/**
 * Attack: make the proxy's own observability the weapon. A caller's
 * `traceparent` with the sampled flag overrode the operator's ratio sampler
 * (ratio 0.0001: 200 such requests gave 400 spans), and a trace id the caller
 * picks passes any ratio; `gen_ai.request.stop_sequences` was uncapped (100k
 * stops: a 3.8 MB span, so a collector refused the batch with it and other
 * callers' spans were lost); a 1 MB `model` made a 1 MB log line. Now the
 * operator's sampler decides (the caller's trace is still continued) unless
 * `telemetry.honourCallerSampling`; every span attribute and log field taken
 * from a caller is cut, with a marker, so a span stays under 64 KB and a log
 * line under 16 KB whatever the request.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logging/logger.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';

const SPAN_BOUND = 64 * 1024;
const LINE_BOUND = 16 * 1024;

/** A chat upstream that echoes the caller's model (as vLLM does) and a long answer. */
const echoModel = (request: { body: unknown }) => ({
  json: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: (request.body as { model: string }).model,
    choices: [{ index: 0, message: { role: 'assistant', content: '\u0001"é€'.repeat(50_000) }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  },
});

const bytes = (value: unknown) =>
  Buffer.byteLength(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? String(item) : item)));
const spanBytes = (span: ReceivedSpan) => bytes({ ...span, resource: undefined });

let upstream: MockUpstream;
let receiver: OtlpReceiver;
const otelEnv: Record<string, string | undefined> = {};

beforeAll(async () => {
  // The telemetry sections below say it all, whatever the developer's shell says.
  for (const name of Object.keys(process.env).filter((key) => key.startsWith('OTEL_'))) {
    otelEnv[name] = process.env[name];
    delete process.env[name];
  }
  process.env.OTEL_BSP_SCHEDULE_DELAY = '20';
  upstream = await startMockUpstream(echoModel);
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
  for (const [name, value] of Object.entries(otelEnv)) if (value !== undefined) process.env[name] = value;
  await Promise.all([upstream?.close(), receiver?.close()]);
});

async function proxyWith(telemetry: Record<string, unknown>, lines: string[] = []): Promise<RunningServer> {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({
    backends: { up: { kind: 'openai', url: upstream.url, retries: { attempts: 0 } } },
    routes: [
      { model: 'known', backend: 'up' },
      { model: 'm*', backend: 'up' },
    ],
    telemetry: { endpoint: receiver.url, ...telemetry },
    // An operator who raised the stop-sequence limit (256 by default): the spans must stay small all the same.
    limits: { stopSequences: 100_000 },
  });
  const proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ json: true, stream }) });
  await proxy.proxy.ready;
  return proxy;
}

const post = (proxy: RunningServer, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('what a caller puts in a request stays small in spans and log lines', () => {
  let proxy: RunningServer;
  const lines: string[] = [];
  beforeAll(async () => {
    proxy = await proxyWith({ captureContent: true }, lines);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  test('a 1 MB model name: the request log line is under 16 KB, and says the name was cut', async () => {
    const model = `m${'"\\x'.repeat(350_000)}`;
    const response = await post(proxy, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(200);
    const id = response.headers.get('x-request-id');
    const line = lines.find((text) => text.includes(`"requestId":"${id}"`) && text.includes('"message":"request"'))!;
    expect(line).toBeDefined();
    expect(Buffer.byteLength(line)).toBeLessThan(LINE_BOUND);
    expect((JSON.parse(line) as { model: string }).model).toMatch(/…\[truncated: 1050001 chars\]$/);
  });

  test('a 1 MB model no route takes: the error echoing it is cut, in the answer and in the log line', async () => {
    const response = await post(proxy, '/v1/chat/completions', { model: 'z'.repeat(1 << 20), messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(404);
    const cut = /^The model `z{256}…\[truncated: 1048576 chars\]` does not exist or no route serves it\./;
    const answer = await response.text();
    expect(answer.length).toBeLessThan(1024);
    expect((JSON.parse(answer) as { error: { message: string } }).error.message).toMatch(cut);
    const id = response.headers.get('x-request-id');
    const line = lines.find((text) => text.includes(`"requestId":"${id}"`) && text.includes('"message":"request"'))!;
    expect(Buffer.byteLength(line)).toBeLessThan(LINE_BOUND);
    expect((JSON.parse(line) as { error: string }).error).toMatch(cut);
  });

  test('100k stop sequences, a 1 MB model and 1 MB of prompt captured: every exported span is under 64 KB', async () => {
    // The characters that take the most bytes exported: escaped in OTLP/JSON (\u0001, \"), 2 or 3 bytes of UTF-8.
    const heavy = '\u0001"é€';
    const model = `m${heavy.repeat(1 << 17)}`;
    const stop = Array.from({ length: 100_000 }, (_, index) => `${heavy.repeat(2)} stop sequence ${index}`);
    const response = await post(proxy, '/v1/messages', {
      model,
      max_tokens: 10,
      stop_sequences: stop,
      system: heavy.repeat(50_000),
      messages: Array.from({ length: 2000 }, (_, index) => ({
        role: index % 2 ? 'assistant' : 'user',
        content: `${index} ${heavy.repeat(30)}`,
      })).concat([{ role: 'user', content: 'q' }]),
    });
    expect(response.status).toBe(200);
    expect((upstream.requests.at(-1)!.body as { stop: string[] }).stop).toHaveLength(100_000); // the backend took them all
    const id = response.headers.get('x-request-id');
    const [server] = await receiver.waitFor((spans) => spans.filter((span) => span.attributes['dialect_proxy.request_id'] === id));
    const family = await receiver.waitFor((spans) => {
      const found = spans.filter((span) => span.traceId === server!.traceId);
      return found.length >= 2 ? found : undefined;
    });
    for (const span of family) expect(spanBytes(span)).toBeLessThan(SPAN_BOUND);
    const stops = server!.attributes['gen_ai.request.stop_sequences'] as string[];
    expect(stops.at(-1)).toMatch(/^…\[truncated: 100000 items\]$/);
    expect(server!.attributes['gen_ai.request.model']).toMatch(/…\[truncated: 524289 chars\]$/);
    // Cut, the captured messages are still the conventions' JSON.
    expect(() => JSON.parse(server!.attributes['gen_ai.input.messages'] as string)).not.toThrow();
    expect(() => JSON.parse(server!.attributes['gen_ai.output.messages'] as string)).not.toThrow();
  });
});

describe("the caller's sampled flag is not the operator's sampler", () => {
  const sampledBy = (traceId: string) => ({ traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` });
  const chat = { model: 'known', messages: [{ role: 'user', content: 'hi' }] };
  // Passes any ratio sampler that reads the trace id (its low bits are the ratio's draw).
  const chosenId = '00000000000000000000000000000001';

  async function exportedFor(telemetry: Record<string, unknown>): Promise<{ ids: string[]; exported: ReceivedSpan[]; sent: string[] }> {
    const proxy = await proxyWith(telemetry);
    const ids = [chosenId, ...Array.from({ length: 10 }, () => randomBytes(16).toString('hex'))];
    const sent: string[] = [];
    for (const traceId of ids) {
      const response = await post(proxy, '/v1/chat/completions', chat, sampledBy(traceId));
      expect(response.status).toBe(200);
      sent.push(String(upstream.requests.at(-1)!.headers.traceparent));
    }
    await proxy.close(); // flushes whatever was sampled
    return { ids, exported: receiver.spans.filter((span) => ids.includes(span.traceId)), sent };
  }

  test('sampler ratio ~0 and a caller whose traceparent says sampled: no span exported; the trace is still continued upstream', async () => {
    const { ids, exported, sent } = await exportedFor({ sampler: 'parentbased_traceidratio', samplerRatio: 0.000001 });
    expect(exported).toEqual([]);
    // The trace joins: the backend is called in the caller's trace, marked not sampled.
    expect(sent).toEqual(ids.map((id) => expect.stringMatching(new RegExp(`^00-${id}-[0-9a-f]{16}-00$`))));
  });

  test('with telemetry.honourCallerSampling: true the caller decides, as before', async () => {
    const { ids, exported } = await exportedFor({
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.000001,
      honourCallerSampling: true,
    });
    expect(new Set(exported.map((span) => span.traceId))).toEqual(new Set(ids));
  });
});

test('a log entry of any size: every string field is cut, in the readable format too', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ json: false, stream: sink });
  logger.warn(`a message ${'\u0001'.repeat(1 << 20)}`, {
    model: '\u2028'.repeat(1 << 20),
    tried: Array.from({ length: 10_000 }, () => 'x'.repeat(100)),
  });
  expect(lines).toHaveLength(1);
  expect(Buffer.byteLength(lines[0]!)).toBeLessThan(LINE_BOUND);
  expect(lines[0]).toContain('…[truncated: 1048586 chars]');
});
