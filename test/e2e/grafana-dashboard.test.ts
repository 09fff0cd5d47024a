/**
 * The Grafana dashboard (deploy/grafana/dialect-proxy.json) reads only what the
 * proxy serves: every metric a panel's query (or a template variable) names is
 * in GET /metrics of a running proxy, and every label a query groups or
 * filters by is one of that metric's (the labels of its series, and the label
 * names it is declared with in the proxy's registry, for a family with no
 * series yet). A proxy with a pool of replicas, a concurrency limit and a
 * response store, after a few requests, serves series of most of them.
 */
import { readFileSync } from 'node:fs';
import { createLogger } from '../../src/logging/logger.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

interface Panel {
  id: number;
  type: string;
  title: string;
  targets?: { expr: string }[];
  panels?: Panel[];
}
interface Dashboard {
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; query?: string | { query: string } }[] };
}

const dashboard = JSON.parse(readFileSync('deploy/grafana/dialect-proxy.json', 'utf8')) as Dashboard;
const allPanels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
const queries = [
  ...allPanels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: panel.title, expr: target.expr }))),
  ...dashboard.templating.list.flatMap((variable) =>
    typeof variable.query === 'object' ? [{ where: `$${variable.name}`, expr: variable.query.query }] : [],
  ),
];
/** Labels Prometheus or Grafana add, or that histograms have by nature. */
const NOT_OURS = new Set(['le', 'instance', 'job']);

/** Metric families as served: their type, and the labels seen on their series. */
function families(text: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\w+)/.exec(line);
    if (type) found.set(type[1]!, found.get(type[1]!) ?? new Set());
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? /.exec(line);
    if (!sample) continue;
    const family = sample[1]!.replace(/_(bucket|sum|count)$/, '');
    const labels = found.get(found.has(sample[1]!) ? sample[1]! : family);
    for (const [, name] of (sample[2] ?? '').matchAll(/(\w+)="/g)) labels?.add(name!);
  }
  return found;
}

describe('deploy/grafana/dialect-proxy.json', () => {
  let upstreams: MockUpstream[];
  let proxy: RunningServer;
  let served: Map<string, Set<string>>;

  beforeAll(async () => {
    const answer = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
    };
    upstreams = await Promise.all([startMockUpstream({ json: answer }), startMockUpstream({ json: answer })]);
    const config = loadConfig({
      backends: { pool: { kind: 'openai', urls: upstreams.map((upstream) => upstream.url), maxConcurrent: 4 } },
      routes: [{ model: '*', backend: 'pool' }],
      responses: { store: { kind: 'memory' } },
    });
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${proxy.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }),
      });
      await response.text();
    }
    served = families(await (await fetch(`${proxy.url}/metrics`)).text());
    for (const [family, labels] of served) {
      const declared = (proxy.proxy.metrics.getSingleMetric(family) as { labelNames?: readonly string[] } | undefined)?.labelNames;
      for (const label of declared ?? []) labels.add(label);
    }
  });

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(upstreams.map((upstream) => upstream.close()));
  });

  test('is a dashboard: a uid, panels with unique ids, every panel but a row has a query', () => {
    expect(dashboard.uid).toBe('dialect-proxy');
    const ids = allPanels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of allPanels.filter((candidate) => candidate.type !== 'row')) expect(panel.targets?.length).toBeGreaterThan(0);
  });

  test.each(queries)('$where: $expr', ({ expr }) => {
    const metrics = [...expr.matchAll(/\b(dialect_proxy_\w+)\b/g)].map((match) => match[1]!);
    expect(metrics.length).toBeGreaterThan(0);
    const families = metrics.map((metric) => (served.has(metric) ? metric : metric.replace(/_(bucket|sum|count)$/, '')));
    for (const family of families) expect([...served.keys()]).toContain(family);
    // Labels the query groups by or matches on: on the series of one of its metrics.
    const labels = new Set<string>();
    for (const [, list] of expr.matchAll(/\bby \(([^)]*)\)/g)) for (const name of list!.split(',')) labels.add(name.trim());
    for (const [, name] of expr.matchAll(/(\w+)\s*(?:=~|!=|!~|=)\s*"/g)) labels.add(name!);
    for (const label of [...labels].filter((name) => !NOT_OURS.has(name))) {
      expect(families.some((family) => served.get(family)?.has(label))).toBe(true);
    }
  });
});
