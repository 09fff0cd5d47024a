/**
 * Valid requests generated from the reference specs (OpenAI's newest and
 * 2.3.0 CreateChatCompletionRequest, Fireworks' CompletionRequest), a few
 * hundred per run with a fixed seed (SPEC_REQUESTS per spec), sent through
 * the proxy to every backend kind: remote kinds to a mock upstream that answers
 * in kind (text or SSE, n choices, echo), the bundled worker as a dry run on the
 * built-in model (its real plan, chat template and wire builder; no sampling).
 * Each answer is a 200, or a 4xx whose `param` names a field the request has
 * and whose message says the backend does not support it: never a 5xx, never
 * a hang, never a claim that a spec-valid value is invalid.
 * (Reads ../shared/specs; skipped where it is absent.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { describeWithShared, sharedPath } from '../helpers/shared.js';
import { applyChatProse, applyCompletionProse, applyRanges, specSampler } from '../helpers/spec-requests.js';

type Json = Record<string, unknown>;

const PER_SPEC = Number(process.env.SPEC_REQUESTS ?? 150);
const SEED = 20260911;

const BACKENDS: Record<string, Json> = {
  openai: { kind: 'openai' },
  fireworks: { kind: 'fireworks' },
  'fireworks-text': { kind: 'fireworks', speaks: ['completions'] },
  'llama-server': { kind: 'llama-server' },
  'llama-server-jinja': { kind: 'llama-server', jinja: true },
  vllm: { kind: 'vllm' },
  'llama-cpp': { kind: 'llama-cpp', model: 'builtin', parallel: 2 },
};

/** Answers the way the endpoint asked would: n choices per prompt, the prompt echoed, streamed or not. */
function answer(request: RecordedRequest): MockReply {
  // llama-server's GET /props (read with `jinja: true`): this mock has none, so the configured behaviour stands.
  if (request.method !== 'POST') return { status: 404, json: { error: { message: 'File Not Found', code: 404 } } };
  const body = request.body as Json;
  const chat = request.path.endsWith('/chat/completions');
  const n = typeof body.n === 'number' ? body.n : 1;
  const prompts = Array.isArray(body.prompt) && body.prompt.length > 0 && typeof body.prompt[0] !== 'number' ? body.prompt.length : 1;
  const echoes = !chat && (body.echo === true || typeof body.echo_last === 'number');
  const texts = Array.from({ length: prompts * n }, (_, i) => {
    if (!echoes) return { text: ' ok', tokens: [' ok'] };
    const prompt = Array.isArray(body.prompt) ? body.prompt[Math.floor(i / n)] : body.prompt;
    const promptTokens = typeof prompt === 'string' ? [...prompt] : Array.isArray(prompt) ? prompt.map((id) => `<${String(id)}>`) : [];
    const echoed = body.echo === true ? promptTokens : promptTokens.slice(-Number(body.echo_last));
    return { text: echoed.join('') + ' ok', tokens: [...echoed, ' ok'] };
  });
  const legacy = (tokens: string[]) => ({
    tokens,
    token_logprobs: tokens.map(() => -0.5),
    top_logprobs: tokens.map((token) => ({ [token]: -0.5 })),
    text_offset: tokens.map((_, i) => tokens.slice(0, i).join('').length),
  });
  const usage = { prompt_tokens: 5, completion_tokens: 2 * texts.length, total_tokens: 5 + 2 * texts.length };
  const head = { id: chat ? 'chatcmpl-s' : 'cmpl-s', created: 1700000000, model: 'up' };
  if (body.stream === true) {
    const frames = texts
      .flatMap(({ text, tokens }, index) => [
        chat
          ? { index, delta: { role: 'assistant', content: text }, finish_reason: null }
          : { index, text, logprobs: echoes ? legacy(tokens) : null, finish_reason: null },
        chat ? { index, delta: {}, finish_reason: 'stop' } : { index, text: '', logprobs: null, finish_reason: 'stop' },
      ])
      .map(
        (choice) =>
          `data: ${JSON.stringify({ ...head, object: chat ? 'chat.completion.chunk' : 'text_completion', choices: [choice] })}\n\n`,
      );
    frames.push(
      `data: ${JSON.stringify({ ...head, object: chat ? 'chat.completion.chunk' : 'text_completion', choices: [], usage })}\n\n`,
      'data: [DONE]\n\n',
    );
    return { sse: frames };
  }
  const choices = texts.map(({ text, tokens }, index) =>
    chat
      ? { index, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: 'stop' }
      : { index, text, logprobs: echoes ? legacy(tokens) : null, finish_reason: 'stop' },
  );
  return { json: { ...head, object: chat ? 'chat.completion' : 'text_completion', choices, usage } };
}

interface Outcome {
  backend: string;
  body: Json;
  status: number;
  text: string;
}

/** Why an answer breaks the rule, or undefined when it keeps it. */
function broken({ body, status, text }: Outcome): string | undefined {
  if (status === 200) return undefined;
  if (status >= 500) return `a ${status}`;
  if (status < 400) return `status ${status}`;
  let error: { param?: unknown; message?: unknown; code?: unknown } = {};
  try {
    error = (JSON.parse(text) as { error: typeof error }).error;
  } catch {
    return 'an error body that is not JSON';
  }
  const param = typeof error.param === 'string' ? error.param : '';
  const head = param.split(/[.[]/)[0];
  if (!(head in body)) return `param ${JSON.stringify(error.param)} names no field of the request`;
  // A spec-valid request may still ask for more than a configured budget allows (README, Limits): that refusal names its setting.
  if (error.code === 'limit_exceeded' && typeof error.message === 'string' && /\((limits|responses\.store)\.\w+\)\.$/.test(error.message))
    return undefined;
  if (typeof error.message !== 'string' || !/not supported by/i.test(error.message))
    return `a refusal that does not say the backend does not support it: ${String(error.message)}`;
  return undefined;
}

const specs = sharedPath('specs');
const describeSpecs = describeWithShared(specs);

describeSpecs('spec-valid requests through every backend kind', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    upstream = await startMockUpstream(answer);
    const config = loadConfig({
      backends: Object.fromEntries(
        Object.entries(BACKENDS).map(([name, backend]) => [
          name,
          backend.kind === 'llama-cpp' ? backend : { url: upstream.url, retries: { attempts: 0 }, ...backend },
        ]),
      ),
      routes: Object.keys(BACKENDS).map((name) => ({ model: `${name}:*`, backend: name })),
    });
    process.env.DIALECT_PROXY_CACHE ??= mkdtempSync(path.join(tmpdir(), 'spec-requests-'));
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
    await proxy.proxy.ready;
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  async function send(endpoint: string, backend: string, body: Json): Promise<Outcome> {
    const routed = { ...body, model: `${backend}:${String(body.model)}` };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    // The bundled worker is planned and built for real, without sampling (n up to 128 and no max_tokens would take minutes).
    if (backend === 'llama-cpp') headers['x-dialect-dry-run'] = '1';
    const response = await fetch(proxy.url + endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify(routed),
      signal: AbortSignal.timeout(15_000),
    });
    return { backend, body: routed, status: response.status, text: await response.text() };
  }

  async function run(
    file: string,
    schema: string,
    endpoint: string,
    prose: (body: Json) => Json,
    backends: readonly string[],
  ): Promise<void> {
    const sampler = specSampler(path.join(specs, file), schema);
    const bodies = sampler.sample(PER_SPEC, SEED).map((body) => applyRanges(prose(body), sampler.ranges));
    const invalid = bodies.map((body) => sampler.check(body)).filter((why) => why !== undefined);
    // Every body is valid for the spec itself, prose rules applied.
    expect(invalid).toEqual([]);
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    for (const body of bodies) {
      const outcomes = await Promise.all(backends.map((backend) => send(endpoint, backend, body)));
      for (const outcome of outcomes) {
        counts[`${outcome.backend} ${outcome.status}`] = (counts[`${outcome.backend} ${outcome.status}`] ?? 0) + 1;
        const why = broken(outcome);
        if (why)
          failures.push(
            `${outcome.backend}: ${why}\n  body: ${JSON.stringify(outcome.body).slice(0, 600)}\n  answer: ${outcome.text.slice(0, 400)}`,
          );
      }
    }
    if (failures.length > 0)
      console.log(
        `${file}: ${failures.length} broken answers; the first ones:\n${failures.slice(0, Number(process.env.SPEC_SHOW ?? 12)).join('\n')}`,
      );
    expect(failures).toEqual([]);
    // Most requests get through somewhere: the sampler is not just producing refusals.
    expect(
      Object.entries(counts)
        .filter(([key]) => key.endsWith(' 200'))
        .reduce((sum, [, count]) => sum + count, 0),
    ).toBeGreaterThan(bodies.length);
  }

  const all = Object.keys(BACKENDS);

  test(
    "OpenAI's newest CreateChatCompletionRequest",
    () => run('openai-openapi-latest.yaml', 'CreateChatCompletionRequest', '/v1/chat/completions', applyChatProse, all),
    180_000,
  );
  test(
    "OpenAI 2.3.0's CreateChatCompletionRequest",
    () => run('openai-openapi.yaml', 'CreateChatCompletionRequest', '/v1/chat/completions', applyChatProse, all),
    180_000,
  );
  test(
    "Fireworks' CompletionRequest",
    () => run('fireworks-ai-text-completion-openapi.yml', 'CompletionRequest', '/v1/completions', applyCompletionProse, all),
    180_000,
  );
});
