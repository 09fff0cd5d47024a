/**
 * `dialect-proxy --workers 2`: the real command (dist/, built by `npm test`), two
 * processes on one port. Connections are handed to both, /metrics answers for
 * both from either, SIGTERM stops both gracefully; a `llama-cpp` backend runs
 * one engine (one copy of the model) for both, unless `perWorker: true`.
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { spawnProxy, type ProxyProcess } from '../helpers/proxy-process.js';
import { servingWorkers } from '../helpers/serving-workers.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

const answer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
};

/** One request on a connection of its own (so the primary hands each to a worker in turn). */
function post(url: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', connection: 'close' } },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (text += chunk))
          .on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => (text += chunk))
        .on('end', () => resolve(text));
    })
      .on('error', reject)
      .end();
  });
}

/** Processes running the llama.cpp engine (worker-main.js) under `pid`, at any depth. */
function enginesUnder(pid: number): number {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((row) => {
      const [, child, parent, args] = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(row) ?? [];
      return { pid: Number(child), ppid: Number(parent), args: args ?? '' };
    });
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows)
      if (tree.has(row.ppid) && !tree.has(row.pid)) {
        tree.add(row.pid);
        grew = true;
      }
  }
  return rows.filter((row) => tree.has(row.pid) && row.args.includes('worker-main.js')).length;
}

async function stop(proxy: ProxyProcess): Promise<{ code: number | null }> {
  proxy.child.kill('SIGTERM');
  return proxy.exited;
}

describe('dialect-proxy --workers 2', () => {
  let upstream: MockUpstream;
  beforeAll(async () => {
    upstream = await startMockUpstream({ json: answer });
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('serves from both processes on one port, answers /metrics for both, and stops both on SIGTERM', async () => {
    const proxy = await spawnProxy(
      {
        server: { logLevel: 'info', shutdownGraceMs: 2000 },
        backends: { up: { kind: 'openai', url: upstream.url } },
        routes: [{ model: '*', backend: 'up' }],
      },
      ['--port', '0', '--workers', '2'],
    );
    try {
      await proxy.waitForLine(/backends ready in all 2 workers/);
      for (let i = 0; i < 20; i++) {
        const { status } = await post(proxy.url, '/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
        expect(status).toBe(200);
      }
      await new Promise((resolve) => setTimeout(resolve, 100)); // the last log lines
      expect([...servingWorkers(proxy)].sort()).toEqual([1, 2]);
      // Whichever worker answers, the count is both workers' together.
      for (let i = 0; i < 4; i++) {
        expect(await get(`${proxy.url}/metrics`)).toMatch(
          /^dialect_proxy_requests_total\{dialect="openai-chat",backend="up",route="\*",status_class="2xx"\} 20$/m,
        );
      }
    } finally {
      expect(await stop(proxy)).toMatchObject({ code: 0 });
    }
    expect(proxy.lines.filter((line) => /worker \d stopped \(exit code 0\)/.test(line))).toHaveLength(2);
  }, 30_000);

  it.each([
    ['one engine, shared by both', {}, 1],
    ['perWorker: true, one engine in each', { perWorker: true }, 2],
  ])(
    'llama-cpp: %s',
    async (_name, extra, engines) => {
      const proxy = await spawnProxy(
        {
          server: { logLevel: 'info', shutdownGraceMs: 2000 },
          backends: { local: { kind: 'llama-cpp', model: 'builtin', contextSize: 256, ...extra } },
          routes: [{ model: '*', backend: 'local' }],
        },
        ['--port', '0', '--workers', '2'],
      );
      try {
        await proxy.waitForLine(/backends ready in all 2 workers/, 60_000);
        expect(enginesUnder(proxy.child.pid as number)).toBe(engines);
        for (let i = 0; i < 6; i++) {
          const { status, text } = await post(proxy.url, '/v1/completions', { model: 'm', prompt: 'Once upon a time', max_tokens: 4 });
          expect([status, text]).toEqual([200, expect.stringContaining('"text_completion"')]);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect([...servingWorkers(proxy)].sort()).toEqual([1, 2]);
      } finally {
        expect(await stop(proxy)).toMatchObject({ code: 0 });
      }
    },
    90_000,
  );
});
