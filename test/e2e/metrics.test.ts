/**
 * GET /metrics, parsed as Prometheus text by a real parser: counters match the
 * requests sent; labels come from the config, never from a caller's model name.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

const created = 1_700_000_000;
const answer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created,
  model: 'up-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
};
const chunk = (body: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created, model: 'up-model', ...body })}\n\n`;
const stream = [
  chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] }),
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
  chunk({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }),
  'data: [DONE]\n\n',
].join('');

interface Sample {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
}
interface Family {
  name: string;
  type: string;
  metrics: Sample[];
}

/** The value of the series with exactly these labels (0 when absent). */
function value(families: Family[], name: string, labels: Record<string, string>): number {
  const family = families.find((candidate) => candidate.name === name);
  const sample = family?.metrics.find(
    (metric) => JSON.stringify(Object.entries(metric.labels ?? {}).sort()) === JSON.stringify(Object.entries(labels).sort()),
  );
  return sample ? Number(sample.value ?? sample.count) : 0;
}

describe('GET /metrics', () => {
  let good: MockUpstream;
  let bad: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    good = await startMockUpstream((request) => ((request.body as { stream?: boolean }).stream ? { sse: stream } : { json: answer }));
    bad = await startMockUpstream({ status: 500, json: { error: { message: 'boom' } } });
    const config = loadConfig({
      server: { apiKeys: ['proxy-key'] },
      backends: {
        good: { kind: 'openai', url: good.url },
        bad: { kind: 'openai', url: bad.url, retries: { attempts: 1, initialDelayMs: 1, maxDelayMs: 5 } },
      },
      routes: [
        { model: 'fallback-*', backend: ['bad', 'good'] },
        { model: 'gpt-*', backend: 'good' },
      ],
    });
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
    await proxy.proxy.ready;
  });

  afterAll(async () => {
    await proxy.close();
    await good.close();
    await bad.close();
  });

  const chat = (body: Record<string, unknown>) =>
    fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer proxy-key' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }], ...body }),
    });

  test('counts requests, tokens, retries, fallbacks and failures by configured labels only', async () => {
    for (let i = 0; i < 3; i++) expect((await chat({ model: 'gpt-4o' })).status).toBe(200);
    const streamed = await chat({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true } });
    expect(streamed.status).toBe(200);
    await streamed.text();
    const fallback = await chat({ model: 'fallback-x' });
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get('x-dialect-backend')).toBe('good');
    expect((await chat({ model: 'nope' })).status).toBe(404);
    expect((await chat({ model: 'x{evil="1"}' })).status).toBe(404);

    // Open without the key, like /healthz.
    const scraped = await fetch(`${proxy.url}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await scraped.text();
    const families = parsePrometheusTextFormat(text) as Family[];

    const requests = 'dialect_proxy_requests_total';
    expect(value(families, requests, { dialect: 'openai-chat', backend: 'good', route: 'gpt-*', status_class: '2xx' })).toBe(4);
    expect(value(families, requests, { dialect: 'openai-chat', backend: 'good', route: 'fallback-*', status_class: '2xx' })).toBe(1);
    expect(value(families, requests, { dialect: 'openai-chat', backend: '(none)', route: '(none)', status_class: '4xx' })).toBe(2);
    expect(value(families, 'dialect_proxy_prompt_tokens_total', { backend: 'good', route: 'gpt-*' })).toBe(20);
    expect(value(families, 'dialect_proxy_completion_tokens_total', { backend: 'good', route: 'gpt-*' })).toBe(22);
    expect(value(families, 'dialect_proxy_retries_total', { backend: 'bad', reason: 'server_error' })).toBe(1);
    expect(value(families, 'dialect_proxy_upstream_errors_total', { backend: 'bad', reason: 'server_error' })).toBe(1);
    expect(value(families, 'dialect_proxy_fallbacks_total', { route: 'fallback-*', from: 'bad', to: 'good' })).toBe(1);
    expect(value(families, 'dialect_proxy_requests_in_flight', { backend: 'good' })).toBe(0);
    expect(value(families, 'dialect_proxy_requests_in_flight', { backend: 'bad' })).toBe(0);
    // The parser keeps no labels on histograms: their counts are read from the registry itself.
    const histograms = await proxy.proxy.metrics.getMetricsAsJSON();
    const observed = (name: string) =>
      histograms
        .find((metric) => metric.name === name)
        ?.values.find(
          (entry) =>
            (entry as { metricName?: string }).metricName === `${name}_count` &&
            entry.labels.backend === 'good' &&
            entry.labels.route === 'gpt-*',
        )?.value;
    expect(observed('dialect_proxy_request_duration_seconds')).toBe(4);
    expect(observed('dialect_proxy_time_to_first_token_seconds')).toBe(4);
    expect(families.some((family) => family.name === 'dialect_proxy_process_cpu_seconds_total')).toBe(true);
    // A caller's invented model names never become label values.
    expect(text).not.toMatch(/nope|evil/);
  });

  test('the registry is on the router, for a host app to mount its own way', async () => {
    expect(await proxy.proxy.metrics.metrics()).toContain('dialect_proxy_requests_total');
  });
});
