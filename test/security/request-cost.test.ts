/**
 * Attack: one request that costs seconds of CPU. A keyed 10 MB body within
 * server.maxBodyBytes blocked the event loop, and so every other caller, for
 * 8.5-31 s (a `prompt` of 5 million token ids: Ajv's allErrors built an error
 * per element for each failing branch of the prompt's anyOf; with one bad item
 * the process ran out of heap), 1-5 s for Anthropic content blocks, Responses
 * input items, chat content parts, count_tokens and dry runs; JSON.parse alone
 * took 0.5-1.5 s for some shapes (millions of token ids or empty objects,
 * hundreds of thousands of distinct keys); and a 0.7 MB body of 10,000
 * Anthropic messages with a bad block each took 3 minutes (the validation
 * errors were sorted into their unions pair by pair).
 *
 * Now the body is counted as it arrives (limits.jsonValues, jsonContainers,
 * jsonDepth), its lists are bounded before validation (limits.promptTokens,
 * promptBatch, messages, contentParts, tools, stopSequences), validation stops
 * at the first problem unless the body is small (both validators agree on every
 * body), and errors find their union by lookup. The goal is 250 ms at most for
 * any body on a 2-core machine; the bound asserted is 1 s (shared CI machines are
 * noisy), and the figures are printed.
 */
import express from 'express';
import fc from 'fast-check';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDialectProxy } from '../../src/http/middleware.js';
import type { RunningServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logging/logger.js';
import { checkJsonBudget, JsonBudgetCounter } from '../../src/pipeline/request/json-budget.js';
import { startProxyFor } from '../helpers/start-proxy.js';
import { listRequestFields } from '../helpers/list-request-fields.js';
import { compileBodyValidators, type BodyValidators } from '../../src/validation/compile-body-validator.js';
import { defaultOpenapiDir } from '../../src/validation/load-openapi-document.js';

/** Just under the default server.maxBodyBytes (10 MiB). */
const SIZE = 10 * 1024 * 1024 - 4096;
const BLOCK_BOUND_MS = 1000;

/** `head` + `item` repeated (comma-separated) + `tail`, as long as fits in SIZE. */
const fill = (head: string, item: string, tail: string) =>
  head +
  Array(Math.floor((SIZE - head.length - tail.length) / (item.length + 1)))
    .fill(item)
    .join(',') +
  tail;
/** `make(n)` with its padding `n` chosen so that the body is SIZE long. */
const padded = (make: (n: number) => string) => make(SIZE - make(0).length);
const numbered = (count: number, item: (i: number) => string) => Array.from({ length: count }, (_, i) => item(i)).join(',');

type Shape = [name: string, path: string, body: () => string, status: number, dryRun?: boolean];

/** Past the limits: refused. The first six are the issue's. */
const refused: Shape[] = [
  ['completions: prompt of 5M token ids', '/v1/completions', () => fill('{"model":"m","max_tokens":1,"prompt":[', '1', ']}'), 400],
  [
    'messages: content of empty text blocks',
    '/v1/messages',
    () => fill('{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[', '{"type":"text","text":""}', ']}]}'),
    400,
  ],
  [
    'chat: content parts, as a dry run',
    '/v1/chat/completions',
    () => fill('{"model":"m","messages":[{"role":"user","content":[', '{"type":"text","text":"a"}', ']}]}'),
    400,
    true,
  ],
  ['responses: input items', '/v1/responses', () => fill('{"model":"m","input":[', '{"role":"user","content":"a"}', ']}'), 400],
  [
    'chat: content parts',
    '/v1/chat/completions',
    () => fill('{"model":"m","messages":[{"role":"user","content":[', '{"type":"text","text":"a"}', ']}]}'),
    400,
  ],
  [
    'count_tokens: empty text blocks',
    '/v1/messages/count_tokens',
    () => fill('{"model":"m","messages":[{"role":"user","content":[', '{"type":"text","text":""}', ']}]}'),
    400,
  ],
  [
    'completions: 5M token ids, one a string (ran out of heap)',
    '/v1/completions',
    () => fill('{"model":"m","prompt":["x",', '1', ']}'),
    400,
  ],
  ['completions: 2.6M token-id lists', '/v1/completions', () => fill('{"model":"m","prompt":[', '[1]', ']}'), 400],
  [
    'chat: 2.6M stop sequences',
    '/v1/chat/completions',
    () => fill('{"model":"m","messages":[{"role":"user","content":"a"}],"stop":[', '"a"', ']}'),
    400,
  ],
  [
    'chat: 350,000 messages',
    '/v1/chat/completions',
    () => fill('{"model":"m","messages":[', '{"role":"user","content":"a"}', ']}'),
    400,
    false,
  ],
  [
    'chat: logit_bias of 700,000 distinct keys',
    '/v1/chat/completions',
    () => `{"model":"m","messages":[{"role":"user","content":"a"}],"logit_bias":{${numbered(700_000, (i) => `"${i + 1_000_000}":1`)}}}`,
    400,
  ],
  [
    'chat: 2.6M empty objects in a tool schema',
    '/v1/chat/completions',
    () =>
      fill(
        '{"model":"m","messages":[{"role":"user","content":"a"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"x":[',
        '{}',
        ']}}}]}',
      ),
    400,
  ],
];

/** Under the budgets, but invalid: the first problem is reported (listing all cost an error per element for each branch of a union). */
const invalid: Shape[] = [
  [
    'completions: 262,143 token ids, then a string',
    '/v1/completions',
    () => `{"model":"m","prompt":[${numbered(262_143, (i) => String(100_000 + i))},"x"]}`,
    422,
  ],
  [
    'messages: 10,000 messages of bad blocks (0.7 MB; took 3 min)',
    '/v1/messages',
    () =>
      `{"model":"m","max_tokens":1,"messages":[${numbered(10_000, () => '{"role":"user","content":[{"type":"txt","text":"a"},{"type":"image"}]}')}]}`,
    400,
  ],
  [
    'chat: 20,000 parts of a bad type',
    '/v1/chat/completions',
    () => `{"model":"m","messages":[{"role":"user","content":[${numbered(20_000, () => '{"type":"txt","text":"a"}')}]}]}`,
    400,
  ],
];

/** At the limits (the defaults): taken, planned and answered. */
const taken: Shape[] = [
  [
    'chat: one 10 MB string',
    '/v1/chat/completions',
    () => padded((n) => `{"model":"m","messages":[{"role":"user","content":"${'a'.repeat(n)}"}]}`),
    200,
  ],
  [
    'chat: 10,000 messages',
    '/v1/chat/completions',
    () =>
      padded(
        (n) => `{"model":"m","messages":[${numbered(10_000, (i) => `{"role":"user","content":"${i === 0 ? 'a'.repeat(n) : 'hello'}"}`)}]}`,
      ),
    200,
  ],
  [
    'messages: 5,000 messages of 2 blocks, as a dry run',
    '/v1/messages',
    () =>
      padded(
        (n) =>
          `{"model":"m","max_tokens":1,"messages":[${numbered(5000, (i) => `{"role":"${i % 2 ? 'assistant' : 'user'}","content":[{"type":"text","text":"${i === 0 ? 'a'.repeat(n) : 'hello'}"},{"type":"text","text":"b"}]}`)}]}`,
      ),
    200,
    true,
  ],
  [
    'responses: 5,000 items of 2 parts',
    '/v1/responses',
    () =>
      padded(
        (n) =>
          `{"model":"m","input":[${numbered(5000, (i) => `{"role":"user","content":[{"type":"input_text","text":"${i === 0 ? 'a'.repeat(n) : 'hello'}"},{"type":"input_text","text":"b"}]}`)}]}`,
      ),
    200,
  ],
  [
    'completions: 262,144 token ids',
    '/v1/completions',
    () => `{"model":"m","max_tokens":1,"prompt":[${numbered(262_144, (i) => String(100_000 + i))}]}`,
    200,
  ],
  [
    'chat: metadata of 99,000 distinct keys',
    '/v1/chat/completions',
    () => `{"model":"m","messages":[{"role":"user","content":"a"}],"metadata":{${numbered(99_000, (i) => `"k${i}":"v"`)}}}`,
    200,
  ],
];

/** A chat and a completions upstream that reads each body without parsing it (its cost is not the proxy's). */
async function cannedUpstream() {
  const message = { role: 'assistant', content: 'ok' };
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  const chat = JSON.stringify({
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message, finish_reason: 'stop' }],
    usage,
  });
  const text = JSON.stringify({
    id: 't',
    object: 'text_completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, text: 'ok', finish_reason: 'stop' }],
    usage,
  });
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests += 1;
    req
      .resume()
      .on('end', () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(req.url?.endsWith('/chat/completions') ? chat : text),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** POSTs the file's bytes from a child process: the answer's status and first 300 characters. */
function postFromChild(url: string, sent: Record<string, string>, file: string): Promise<{ status: number; text: string }> {
  const script = `
    const [url, headers, file] = process.argv.slice(1);
    const body = require('node:fs').readFileSync(file);
    const done = (answer) => { process.stdout.write(JSON.stringify(answer)); process.exit(0); };
    const req = require('node:http').request(url, { method: 'POST', agent: false, headers: JSON.parse(headers) }, (res) => {
      let text = '';
      res.on('data', (chunk) => { if (text.length < 300) text += chunk; });
      res.on('end', () => done({ status: res.statusCode, text: text.slice(0, 300) }));
    });
    req.on('error', (error) => done({ status: 0, text: String(error) }));
    req.end(body);`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, url, JSON.stringify(sent), file], (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as { status: number; text: string });
    });
  });
}

const headers = (dryRun = false): Record<string, string> => ({
  'content-type': 'application/json',
  authorization: 'Bearer key-a',
  'anthropic-version': '2023-06-01',
  ...(dryRun ? { 'x-dialect-dry-run': '1' } : {}),
});

describe('no one request of at most server.maxBodyBytes blocks the event loop', () => {
  let upstream: Awaited<ReturnType<typeof cannedUpstream>>;
  let proxy: RunningServer;
  let dir: string;
  const figures: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'request-cost-'));
    upstream = await cannedUpstream();
    proxy = await startProxyFor(
      upstream.url,
      { kind: 'openai', speaks: ['chat', 'completions'] },
      { server: { apiKeys: ['key-a', 'key-b'] } },
    );
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
    console.info(`longest event-loop block per body (goal 250 ms, asserted < ${BLOCK_BOUND_MS} ms):\n${figures.join('\n')}`);
  });

  // Every row of the same length: Jest passes a test function with more parameters than its row a `done` callback.
  const rows = [...refused, ...invalid, ...taken].map(
    ([name, path, body, status, dryRun]) => [name, path, body, status, dryRun ?? false] as const,
  );
  test.each(rows)('%s', async (name, path, makeBody, status, dryRun) => {
    const body = makeBody();
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(10 * 1024 * 1024);
    const file = join(dir, 'body.json');
    writeFileSync(file, body);
    // Once first, unmeasured: the figure is a warm process's (the first large body also pays for compiling the code it runs).
    await postFromChild(proxy.url + path, headers(dryRun), file);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    // Sent from a process of its own: writing 10 MB and reading a dry run's answer would block this loop too.
    const big = postFromChild(proxy.url + path, headers(dryRun), file);
    let finished = false;
    void big.finally(() => (finished = true));
    // Another caller, again and again meanwhile: each answered within 2 s.
    let otherMs = 0;
    while (!finished) {
      const started = performance.now();
      const other = await fetch(`${proxy.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...headers(), authorization: 'Bearer key-b' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(other.status).toBe(200);
      await other.text();
      otherMs = Math.max(otherMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answer = await big;
    delay.disable();
    const blockMs = delay.max / 1e6 - 5;
    figures.push(`  ${name.padEnd(58)} ${answer.status}  ${blockMs.toFixed(0).padStart(5)} ms  (other caller: ${otherMs.toFixed(0)} ms)`);
    expect(answer).toMatchObject({ status });
    if (refused.some(([refusedName]) => refusedName === name)) expect(answer.text).toMatch(/limits\.\w+/);
    expect(otherMs).toBeLessThan(2000);
    expect(blockMs).toBeLessThan(BLOCK_BOUND_MS);
  });
});

describe('the limits refuse naming the caller field and the setting', () => {
  let upstream: Awaited<ReturnType<typeof cannedUpstream>>;
  let proxy: RunningServer;
  const limits = {
    messages: 3,
    contentParts: 4,
    tools: 2,
    stopSequences: 2,
    promptTokens: 5,
    promptBatch: 2,
    jsonValues: 400,
    jsonContainers: 200,
  };
  beforeAll(async () => {
    upstream = await cannedUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat', 'completions'] }, { limits });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  const user = (content: unknown) => ({ role: 'user', content });
  const text = (t: string) => ({ type: 'text', text: t });
  const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });
  const post = (path: string, body: unknown) =>
    fetch(proxy.url + path, { method: 'POST', headers: headers(true), body: typeof body === 'string' ? body : JSON.stringify(body) });

  test.each<[string, string, unknown, string, string]>([
    ['token ids in a prompt', '/v1/completions', { model: 'm', prompt: [1, 2, 3, 4, 5, 6] }, 'prompt', 'limits.promptTokens'],
    [
      'token ids of a batch together',
      '/v1/completions',
      {
        model: 'm',
        prompt: [
          [1, 2, 3],
          [4, 5, 6],
        ],
      },
      'prompt',
      'limits.promptTokens',
    ],
    ['prompts in a batch', '/v1/completions', { model: 'm', prompt: ['a', 'b', 'c'] }, 'prompt', 'limits.promptBatch'],
    [
      'chat messages',
      '/v1/chat/completions',
      { model: 'm', messages: [user('a'), user('b'), user('c'), user('d')] },
      'messages',
      'limits.messages',
    ],
    [
      'Responses input items',
      '/v1/responses',
      { model: 'm', input: [user('a'), user('b'), user('c'), user('d')] },
      'input',
      'limits.messages',
    ],
    [
      'content parts across messages',
      '/v1/chat/completions',
      { model: 'm', messages: [user([text('a'), text('b'), text('c')]), user([text('d'), text('e')])] },
      'messages[1].content',
      'limits.contentParts',
    ],
    [
      "an Anthropic tool result's own blocks, with system's",
      '/v1/messages',
      {
        model: 'm',
        max_tokens: 1,
        system: [text('s'), text('t')],
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [text('a'), text('b')] }] }],
      },
      'messages[0].content[0].content',
      'limits.contentParts',
    ],
    [
      'tools',
      '/v1/chat/completions',
      { model: 'm', messages: [user('a')], tools: [tool('a'), tool('b'), tool('c')] },
      'tools',
      'limits.tools',
    ],
    [
      'Anthropic stop sequences',
      '/v1/messages',
      { model: 'm', max_tokens: 1, messages: [user('a')], stop_sequences: ['a', 'b', 'c'] },
      'stop_sequences',
      'limits.stopSequences',
    ],
    [
      'Gemini contents',
      '/v1beta/models/m:generateContent',
      { contents: [1, 2, 3, 4].map((i) => ({ role: 'user', parts: [{ text: String(i) }] })) },
      'contents',
      'limits.messages',
    ],
    [
      "Gemini parts across contents, with systemInstruction's",
      '/v1beta/models/m:generateContent',
      {
        systemInstruction: { parts: [{ text: 's' }, { text: 't' }] },
        contents: [{ role: 'user', parts: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] }],
      },
      'contents[0].parts',
      'limits.contentParts',
    ],
    [
      "Gemini's functions, not its tool objects",
      '/v1beta/models/m:generateContent',
      {
        contents: [{ role: 'user', parts: [{ text: 'a' }] }],
        tools: [{ functionDeclarations: ['f', 'g', 'h'].map((name) => ({ name })) }],
      },
      'tools',
      'limits.tools',
    ],
    [
      'Gemini stop sequences, by their proto name',
      '/v1beta/models/m:generateContent',
      { contents: [{ role: 'user', parts: [{ text: 'a' }] }], generation_config: { stop_sequences: ['a', 'b', 'c'] } },
      'generationConfig.stopSequences',
      'limits.stopSequences',
    ],
    [
      'values in the body',
      '/v1/chat/completions',
      { model: 'm', messages: [user('a')], metadata: { a: Array(400).fill(1) } },
      'metadata',
      'limits.jsonValues',
    ],
    [
      'objects, arrays and keys in the body',
      '/v1/chat/completions',
      { model: 'm', messages: [user('a')], tools: [{ type: 'function', function: { name: 'f', parameters: { x: Array(200).fill({}) } } }] },
      'tools',
      'limits.jsonContainers',
    ],
  ])('%s', async (_name, path, body, param, setting) => {
    const response = await post(path, body);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { param?: string; code?: string; message: string } };
    // Anthropic's and Google's error bodies have neither a param nor a code: the message names both.
    if (path === '/v1/messages' || path.startsWith('/v1beta/')) expect(error.message).toContain(param);
    else expect(error).toMatchObject({ param, code: 'limit_exceeded' });
    expect(error.message).toContain(setting);
  });

  test('a body at every limit is taken', async () => {
    const at = await post('/v1/chat/completions', {
      model: 'm',
      messages: [user([text('a'), text('b')]), user([text('c'), text('d')]), user('e')],
      tools: [tool('a'), tool('b')],
      stop: ['x', 'y'],
    });
    expect(at.status).toBe(200);
    expect(
      (
        await post('/v1/completions', {
          model: 'm',
          prompt: [
            [1, 2],
            [3, 4, 5],
          ],
        })
      ).status,
    ).toBe(200);
  });

  test('a refused body is read to its end, neither kept nor counted, and its connection serves the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (body: string) =>
      new Promise<{ status: number; text: string; reused: boolean }>((resolve, reject) => {
        const req = httpRequest(`${proxy.url}/v1/chat/completions`, { agent, method: 'POST', headers: headers(true) }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, reused: req.reusedSocket }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      // Past limits.jsonValues (400) in its first kilobytes, then 2 MB more.
      const refused = await send(JSON.stringify({ model: 'm', messages: [user('a')], metadata: { a: Array(1_000_000).fill(1) } }));
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({ error: { param: 'metadata', code: 'limit_exceeded' } });
      const next = await send(JSON.stringify({ model: 'm', messages: [user('a')] }));
      expect(next).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  test('behind a host app whose express.json() parsed the body, the parsed body is held to the same budgets', async () => {
    const app = express();
    app.use(express.json({ limit: '10mb' }));
    const router = createDialectProxy(
      { backends: { up: { kind: 'openai', url: upstream.url, speaks: ['chat'] } }, routes: [{ model: '*', backend: 'up' }], limits },
      { logger: createLogger({ silent: true }) },
    );
    app.use(router);
    await router.ready;
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [user('a')], metadata: { a: Array(400).fill(1) } }),
      });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { param: string; message: string } };
      expect(error.param).toBe('metadata');
      expect(error.message).toContain('limits.jsonValues');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await router.close();
    }
  });

  test('nothing refused reached the upstream', () => {
    // Only the bodies "at every limit" were sent on: dry runs send nothing.
    expect(upstream.requests()).toBe(0);
  });
});

test('the text, counted in pieces as it arrives, gives the counts of the parsed body', () => {
  const huge = 1e9;
  /** The least budget of `limit` under which `count` passes (bisection over what throws). */
  const least = (
    count: (limits: { jsonValues: number; jsonContainers: number; jsonDepth: number }) => void,
    limit: 'jsonValues' | 'jsonContainers',
  ) => {
    let [low, high] = [1, 1e6];
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      try {
        count({ jsonValues: huge, jsonContainers: huge, jsonDepth: huge, [limit]: mid });
        high = mid;
      } catch {
        low = mid + 1;
      }
    }
    return low;
  };
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (value, cuts, spaced) => {
      // Cut anywhere, inside a character of several bytes too.
      const json = Buffer.from(JSON.stringify(value, null, spaced ? 1 : undefined));
      const at = [0, ...cuts.map((cut) => cut % (json.length + 1)).sort((a, b) => a - b), json.length];
      const pieces = at.slice(1).map((end, i) => json.subarray(at[i], end));
      for (const limit of ['jsonValues', 'jsonContainers'] as const) {
        const streamed = least((limits) => {
          const counter = new JsonBudgetCounter(limits);
          for (const piece of pieces) counter.write(piece);
        }, limit);
        expect(streamed).toBe(least((limits) => checkJsonBudget(value, limits), limit));
      }
    }),
    { numRuns: 500 },
  );
  // Escaped quotes and backslashes cut anywhere.
  const json = Buffer.from('{"a\\\\":"b\\"c\\\\","d":["\\\\\\"x","é"]}');
  for (let cut = 0; cut <= json.length; cut++) {
    const counted = least((limits) => {
      const counter = new JsonBudgetCounter(limits);
      counter.write(json.subarray(0, cut));
      counter.write(json.subarray(cut));
    }, 'jsonValues');
    expect(counted).toBe(least((limits) => checkJsonBudget(JSON.parse(json.toString()), limits), 'jsonValues'));
  }
});

describe.each(['chat', 'text', 'responses', 'messages'] as const)(
  'the %s document: the first-error validator and the all-errors one',
  (name) => {
    let validators: BodyValidators;
    beforeAll(async () => {
      validators = await compileBodyValidators(name, defaultOpenapiDir());
    });

    test('agree on every body, field by field, for any JSON value', () => {
      const minimal = {
        chat: { model: 'm', messages: [{ role: 'user', content: 'Hi' }] },
        text: { model: 'm', prompt: 'Hi' },
        responses: { model: 'm', input: 'Hi' },
        messages: { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
      }[name];
      fc.assert(
        fc.property(fc.constantFrom(...listRequestFields(name)), fc.jsonValue({ maxDepth: 3 }), (field, value) => {
          const data = { requestBody: { ...minimal, [field]: value } };
          expect(validators.firstError(data)).toBe(validators.allErrors(data));
        }),
        { numRuns: 300 },
      );
    });
  },
);
