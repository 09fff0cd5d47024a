/**
 * Traces in the real `dialect-proxy` process (dist/, built by `npm test`):
 * switched on by the standard variables alone (here OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * and http/json), the bundled worker's generation a child span of the request's;
 * and with no variable and no `telemetry` section, not one @opentelemetry
 * package is imported (module hooks record every resolution:
 * test/helpers/otel-import-watch.mjs), no `traceparent` goes upstream and the
 * log line has no trace id.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnProxy, type ProxyProcess } from '../helpers/proxy-process.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startOtlpReceiver, SPAN_KIND, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { describeWithShared, sharedPath } from '../helpers/shared.js';

// Needs ../shared (the stories260K model); skips where it is absent, outside CI.
const storiesPath = sharedPath('models/stories260K.gguf');
const watch = ['--import', resolve('test/helpers/otel-import-watch.mjs')];
const dir = mkdtempSync(join(tmpdir(), 'telemetry-process-'));
const processes: ProxyProcess[] = [];

/** This process's environment without any OTEL_* variable. */
function envWithout(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  return { ...env, ...extra };
}

function requestLine(proxy: ProxyProcess): Record<string, unknown> {
  const line = proxy.lines.find((text) => text.includes('"message":"request"'));
  if (!line) throw new Error(`no request line in:\n${proxy.lines.join('\n')}`);
  return JSON.parse(line) as Record<string, unknown>;
}

afterAll(async () => {
  for (const proxy of processes) {
    proxy.child.kill('SIGTERM');
    await proxy.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('tracing off (no OTEL_* variable, no telemetry section)', () => {
  let upstream: MockUpstream;
  afterAll(() => upstream?.close());

  test('no OpenTelemetry package is loaded, nothing goes upstream, the log line is as before', async () => {
    upstream = await startMockUpstream({
      json: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
    });
    const imports = join(dir, 'off.log');
    const proxy = await spawnProxy(
      { backends: { up: { kind: 'openai', url: upstream.url } }, routes: [{ model: '*', backend: 'up' }] },
      ['--port', '0'],
      { env: envWithout({ OTEL_IMPORT_LOG: imports }), nodeArgs: watch },
    );
    processes.push(proxy);
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(response.status).toBe(200);
    await proxy.waitForLine(/"message":"request"/);
    expect(existsSync(imports) ? readFileSync(imports, 'utf8') : '').toBe('');
    expect(upstream.requests[0]!.headers.traceparent).toBeUndefined();
    expect(requestLine(proxy)).not.toHaveProperty('trace_id');
  });
});

describeWithShared(storiesPath)('tracing on by the standard variables (http/json), the bundled worker', () => {
  let receiver: OtlpReceiver;
  afterAll(() => receiver?.close());

  test("the worker's generation is a child span of the request's, with its usage; the SDK was loaded", async () => {
    receiver = await startOtlpReceiver();
    const imports = join(dir, 'on.log');
    const proxy = await spawnProxy(
      {
        backends: { local: { kind: 'llama-cpp', model: storiesPath, contextSize: 256, parallel: 1, threads: 1 } },
        routes: [{ model: '*', backend: 'local' }],
      },
      ['--port', '0'],
      {
        env: envWithout({
          OTEL_IMPORT_LOG: imports,
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_SERVICE_NAME: 'worker-proxy',
          OTEL_BSP_SCHEDULE_DELAY: '20',
        }),
        nodeArgs: watch,
      },
    );
    processes.push(proxy);
    const response = await fetch(`${proxy.url}/v1/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'stories', prompt: 'Once upon a time', max_tokens: 8, temperature: 0 }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    const [server] = await receiver.waitFor((spans) => spans.filter((span) => span.attributes['dialect_proxy.request_id'] === requestId));
    const [generation] = await receiver.waitFor((spans) => spans.filter((span) => span.parentSpanId === server!.spanId));
    expect(server).toMatchObject({ kind: SPAN_KIND.server, name: 'text_completion stories' });
    expect(server!.attributes).toMatchObject({ 'gen_ai.provider.name': 'llama.cpp', 'gen_ai.usage.output_tokens': expect.any(Number) });
    expect(server!.resource['service.name']).toBe('worker-proxy');
    expect(generation).toMatchObject({ kind: SPAN_KIND.internal, traceId: server!.traceId, name: 'text_completion stories' });
    expect(generation!.attributes).toMatchObject({ 'dialect_proxy.backend': 'local', 'gen_ai.usage.output_tokens': expect.any(Number) });
    expect(Number(generation!.endNs - generation!.startNs)).toBeGreaterThan(0);
    expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
    expect(readFileSync(imports, 'utf8')).toMatch(/@opentelemetry\/sdk-trace-base/);
    expect(requestLine(proxy)).toMatchObject({ trace_id: server!.traceId, span_id: server!.spanId });
  });
});
