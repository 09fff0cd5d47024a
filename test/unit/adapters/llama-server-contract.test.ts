/**
 * Contract: every llama-server capture, replayed through the whole proxy with `kind: llama-server`.
 * The caller posts the captured request body to the proxy; the mock upstream answers with the
 * captured status and bytes; the caller's answer must be spec-correct for its dialect.
 * Reads ../shared/captures/llama-server (INDEX.tsv lists them); skipped when that is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunningServer } from '../../../src/http/server.js';
import { sseFrames, startMockUpstream, type MockReply, type MockUpstream } from '../../helpers/mock-upstream.js';
import { startProxyFor } from '../../helpers/start-proxy.js';
import { CAPTURES, withCaptures } from './capture-request.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Row {
  name: string;
  method: string;
  path: string;
  requestFile: string;
  status: number;
}

/** Each capture's fate: answered from the upstream's bytes, refused by the proxy first, or an endpoint the proxy does not translate. */
type Fate =
  | { kind: 'relayed' }
  | { kind: 'refused'; status: number; param: string | null; code: string | null }
  | { kind: 'not-proxied'; why: string };

const ADMIN = 'a llama-server endpoint outside the two translated ones: the proxy never calls it';
const FATES: Readonly<Record<string, Fate>> = {
  server_props: { kind: 'not-proxied', why: ADMIN },
  server_models: { kind: 'not-proxied', why: 'GET /v1/models is answered by the proxy from its routes' },
  server_health: { kind: 'not-proxied', why: ADMIN },
  chat_apply_template: { kind: 'not-proxied', why: ADMIN },
  tokenize: { kind: 'not-proxied', why: ADMIN },
  tokenize_no_special: { kind: 'not-proxied', why: ADMIN },
  cmpl_logprobs3: { kind: 'relayed' },
  // llama-server ignores echo (200, nothing echoed), so the plan refuses it.
  cmpl_echo_logprobs2: { kind: 'refused', status: 400, param: 'echo', code: 'unsupported_parameter' },
  cmpl_stream_usage: { kind: 'relayed' },
  cmpl_n2_seed42: { kind: 'relayed' },
  cmpl_prompt_array: { kind: 'relayed' },
  cmpl_prompt_token_ids: { kind: 'relayed' },
  chat_logprobs: { kind: 'relayed' },
  chat_stream_usage: { kind: 'relayed' },
  chat_json_object: { kind: 'relayed' },
  chat_json_schema: { kind: 'relayed' },
  // Tools are an HTTP 500 on a server without --jinja: refused before sending.
  chat_tools_auto: { kind: 'refused', status: 400, param: 'tools', code: 'unsupported_parameter' },
  error_cmpl_missing_prompt: { kind: 'refused', status: 422, param: 'prompt', code: 'invalid_value' },
  // max_tokens -1 means "until the context is full" to llama.cpp: never sent.
  error_cmpl_max_tokens_neg1: { kind: 'refused', status: 400, param: 'max_tokens', code: null },
  // The proxy parses the body itself: llama.cpp's 500 on bad JSON cannot happen behind it.
  error_bad_json: { kind: 'refused', status: 400, param: null, code: 'invalid_json' },
  error_chat_bad_json: { kind: 'refused', status: 400, param: null, code: 'invalid_json' },
  error_unknown_model: { kind: 'relayed' },
  error_chat_unknown_model: { kind: 'relayed' },
  error_cmpl_n_over_slots: { kind: 'relayed' },
  error_chat_missing_messages: { kind: 'refused', status: 400, param: 'messages', code: 'invalid_value' },
  cmpl_stream_logprobs2: { kind: 'relayed' },
  chat_stream_logprobs: { kind: 'relayed' },
  cmpl_stop: { kind: 'relayed' },
  cmpl_n2_stream: { kind: 'relayed' },
  chat_n2: { kind: 'relayed' },
  cmpl_stream_include_usage_false: { kind: 'relayed' },
  cmpl_prompt_token_ids_no_bos: { kind: 'relayed' },
  chat_stream_no_usage: { kind: 'relayed' },
};

const readCapture = (file: string) => readFileSync(path.join(CAPTURES, file), 'utf8');
const rows: Row[] = existsSync(CAPTURES)
  ? readCapture('INDEX.tsv')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => {
        const [name, method, route, requestFile, status] = line.split('\t');
        return { name, method, path: route, requestFile, status: Number(status) };
      })
  : [];
const row = (name: string): Row => rows.find((candidate) => candidate.name === name) as Row;

/** The upstream's answer: the captured bytes (SSE as they came; JSON re-serialised, same object) with the captured status. */
function upstreamReply({ name, status }: Row): MockReply {
  const sse = path.join(CAPTURES, `${name}.response.sse`);
  return existsSync(sse) ? { status, sse: readFileSync(sse, 'utf8') } : { status, json: JSON.parse(readCapture(`${name}.response.json`)) };
}

const FINISH = ['stop', 'length'];

/** OpenAI `CreateCompletionResponse` / Fireworks `CompletionResponse`, with legacy logprobs when `logprobs: N` was asked. */
function expectCompletion(body: Json, asked?: { top: number }): void {
  expect(Object.keys(body).sort()).toEqual(['choices', 'created', 'id', 'model', 'object', 'usage']);
  expect(body).toMatchObject({
    object: 'text_completion',
    id: expect.stringMatching(/^cmpl-/),
    created: expect.any(Number),
    model: expect.any(String),
  });
  for (const choice of body.choices) {
    expect(Object.keys(choice).sort()).toEqual(['finish_reason', 'index', 'logprobs', 'text']);
    expect(FINISH).toContain(choice.finish_reason);
    if (asked) expectLegacyLogprobs(choice.logprobs, choice.text, asked.top);
    else expect(choice.logprobs).toBeNull();
  }
  expectUsage(body.usage);
}

function expectLegacyLogprobs(logprobs: Json, text: string, top: number, offset = 0): void {
  expect(Object.keys(logprobs).sort()).toEqual(['text_offset', 'token_ids', 'token_logprobs', 'tokens', 'top_logprobs']);
  expect(logprobs.tokens.join('')).toBe(text);
  let at = offset;
  expect(logprobs.text_offset).toEqual(logprobs.tokens.map((token: string) => (at += token.length) - token.length));
  expect(logprobs.token_logprobs).toHaveLength(logprobs.tokens.length);
  for (const map of logprobs.top_logprobs) expect(Object.keys(map).length).toBeLessThanOrEqual(top + 1);
}

/** OpenAI `CreateChatCompletionResponse`: no llama.cpp extras (`timings`, logprob `id`s). */
function expectChat(body: Json, logprobs = false): void {
  expect(Object.keys(body).sort()).toEqual(['choices', 'created', 'id', 'model', 'object', 'system_fingerprint', 'usage']);
  expect(body).toMatchObject({ object: 'chat.completion', id: expect.stringMatching(/^chatcmpl-/) });
  for (const choice of body.choices) {
    expect(Object.keys(choice).sort()).toEqual(['finish_reason', 'index', 'logprobs', 'message']);
    expect(choice.message).toEqual({ role: 'assistant', content: expect.any(String), refusal: null });
    expect(FINISH).toContain(choice.finish_reason);
    if (!logprobs) expect(choice.logprobs).toBeNull();
    else
      for (const entry of choice.logprobs.content) expect(Object.keys(entry).sort()).toEqual(['bytes', 'logprob', 'token', 'top_logprobs']);
  }
  expectUsage(body.usage);
}

function expectUsage(usage: Json): void {
  expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  expect(Object.keys(usage).sort()).toEqual(['completion_tokens', 'prompt_tokens', 'prompt_tokens_details', 'total_tokens']);
}

/** A stream: one id and object throughout, valid finish reasons, each choice ended once, `[DONE]` last, no `timings`. */
function expectStream(frames: unknown[], object: string, choices: number): Json[] {
  expect(frames.at(-1)).toBe('[DONE]');
  const chunks = frames.slice(0, -1) as Json[];
  const ids = new Set(chunks.map((chunk) => chunk.id));
  expect(ids.size).toBe(1);
  expect([...ids][0]).toMatch(object === 'text_completion' ? /^cmpl-/ : /^chatcmpl-/);
  const ended: number[] = [];
  for (const chunk of chunks) {
    expect(chunk.object).toBe(object);
    expect(chunk).not.toHaveProperty('timings');
    for (const choice of chunk.choices) if (choice.finish_reason !== null) ended.push(choice.index);
    for (const choice of chunk.choices) if (choice.finish_reason !== null) expect(FINISH).toContain(choice.finish_reason);
  }
  expect(ended.sort()).toEqual(Array.from({ length: choices }, (_, i) => i));
  return chunks;
}

const usageChunks = (chunks: Json[]) => chunks.filter((chunk) => chunk.usage);
const textOf = (chunks: Json[], index = 0) =>
  chunks
    .flatMap((chunk) => chunk.choices)
    .filter((choice: Json) => choice.index === index)
    .map((choice: Json) => choice.text ?? choice.delta?.content ?? '')
    .join('');

withCaptures('llama-server contract: every capture through the proxy', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'llama-server' });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  /** Posts the captured request (its exact text; `change` edits it as JSON) with the captured answer upstream. */
  async function replay(name: string, change?: (body: Json) => void) {
    const capture = row(name);
    upstream.reply(upstreamReply(capture));
    const before = upstream.requests.length;
    let text = readCapture(capture.requestFile);
    if (change) {
      const body = JSON.parse(text) as Json;
      change(body);
      text = JSON.stringify(body);
    }
    const response = await fetch(proxy.url + capture.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    const raw = await response.text();
    const sse = /text\/event-stream/.test(response.headers.get('content-type') ?? '');
    return {
      status: response.status,
      body: sse ? {} : (JSON.parse(raw) as Json),
      frames: sse ? sseFrames(raw) : [],
      sent: upstream.requests.slice(before).map((request) => request.body as Json),
    };
  }

  test('every capture in INDEX.tsv has a fate here', () => {
    expect(rows.map((capture) => capture.name).sort()).toEqual(Object.keys(FATES).sort());
  });

  test.each(Object.entries(FATES).filter(([, fate]) => fate.kind === 'refused'))(
    '%s: refused by the proxy, in its dialect, upstream untouched',
    async (name, fate) => {
      const { status, param, code } = fate as Extract<Fate, { kind: 'refused' }>;
      const out = await replay(name);
      expect(out.sent).toEqual([]);
      expect(out.status).toBe(status);
      expect(out.body.error).toEqual({ message: expect.any(String), type: 'invalid_request_error', param, code });
      // The completions dialect adds Fireworks' FastAPI-style `detail` list.
      if (row(name).path === '/v1/completions')
        expect(out.body.detail).toEqual([expect.objectContaining({ loc: expect.any(Array), msg: expect.any(String) })]);
    },
  );

  test.each(Object.entries(FATES).filter(([, fate]) => fate.kind === 'not-proxied'))('%s: not proxied', async (name) => {
    const capture = row(name);
    const before = upstream.requests.length;
    const response = await fetch(proxy.url + capture.path, {
      method: capture.method,
      ...(capture.method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: readCapture(capture.requestFile) } : {}),
    });
    // The proxy lists the models its routes name; the one route here is the wildcard, which names none.
    if (capture.path === '/v1/models') expect(await response.json()).toEqual({ object: 'list', data: [] });
    else expect(response.status).toBe(404);
    expect(upstream.requests.length).toBe(before);
  });

  test('cmpl_stop: the exact completion; `chatcmpl-` id made `cmpl-`; no timings or system_fingerprint', async () => {
    const out = await replay('cmpl_stop');
    expect(out.sent).toEqual([{ model: 'stories260K', prompt: 'Once upon a time', temperature: 0, stop: ['.'], max_tokens: 32 }]);
    expect(out.body).toEqual({
      id: 'cmpl-knGroNv9ulnZaLPUvriTkm3xfLbi5nyR',
      object: 'text_completion',
      created: 1795956885,
      model: 'stories260K',
      choices: [{ index: 0, text: ', there was a little girl named Lily', logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 11, total_tokens: 16, prompt_tokens_details: { cached_tokens: 4 } },
    });
  });

  test('cmpl_logprobs3: logprobs 3 asked, chat-shaped upstream answer -> legacy logprobs with text_offset', async () => {
    const out = await replay('cmpl_logprobs3');
    // echo: false is the default and changes nothing: not sent.
    expect(out.sent).toEqual([{ model: 'stories260K', prompt: 'Once upon a time', temperature: 0, max_tokens: 16, logprobs: 3 }]);
    expectCompletion(out.body, { top: 3 });
    expect(out.body.choices[0].logprobs.top_logprobs[0]).toEqual({
      ',': -0.031780876219272614,
      ' there': -3.5473029613494873,
      ' in': -8.119460105895996,
    });
    expect(out.body.choices[0].logprobs.token_ids.slice(0, 3)).toEqual([432, 383, 286]);
  });

  test('cmpl_n2_seed42 and chat_n2: usage over both choices (llama-server counts the first only)', async () => {
    const completion = await replay('cmpl_n2_seed42');
    expect(completion.sent).toEqual([
      { model: 'stories260K', prompt: 'Once upon a time', temperature: 0.8, seed: 42, n: 2, max_tokens: 16 },
    ]);
    expectCompletion(completion.body);
    expect(completion.body.choices.map((choice: Json) => choice.index)).toEqual([0, 1]);
    expect(completion.body.usage).toEqual({
      prompt_tokens: 5,
      completion_tokens: 32,
      total_tokens: 37,
      prompt_tokens_details: { cached_tokens: 4 },
    });

    const chat = await replay('chat_n2');
    expectChat(chat.body);
    expect(chat.body.choices.map((choice: Json) => choice.message.content)).toEqual(['But as they were a', 'He was very dirty']);
    expect(chat.body.usage).toEqual({
      prompt_tokens: 50,
      completion_tokens: 16,
      total_tokens: 66,
      prompt_tokens_details: { cached_tokens: 49 },
    });
  });

  test("cmpl_prompt_array: one choice per prompt; the upstream's first-choice usage stays (prompt 2 is uncounted)", async () => {
    const out = await replay('cmpl_prompt_array');
    expect(out.sent[0].prompt).toEqual(['Once upon a time', 'The little dog']);
    expectCompletion(out.body);
    expect(out.body.choices.map((choice: Json) => [choice.index, choice.text.slice(0, 5)])).toEqual([
      [0, ', the'],
      [1, ' was '],
    ]);
    expect(out.body.usage).toEqual({
      prompt_tokens: 5,
      completion_tokens: 16,
      total_tokens: 21,
      prompt_tokens_details: { cached_tokens: 4 },
    });
  });

  test('cmpl_prompt_token_ids(_no_bos): token ids go verbatim (llama.cpp adds no BOS to them)', async () => {
    for (const [name, prompt, promptTokens] of [
      ['cmpl_prompt_token_ids', [1, 403, 407, 261, 378], 5],
      ['cmpl_prompt_token_ids_no_bos', [403, 407, 261, 378], 4],
    ] as const) {
      const out = await replay(name);
      expect(out.sent[0].prompt).toEqual(prompt);
      expectCompletion(out.body);
      expect(out.body.usage.prompt_tokens).toBe(promptTokens);
    }
  });

  test('error_unknown_model, error_chat_unknown_model: relayed; the answer names the model llama-server served', async () => {
    const completion = await replay('error_unknown_model');
    expect(completion.sent[0].model).toBe('no-such-model');
    expectCompletion(completion.body);
    expect(completion.body.model).toBe('stories260K');
    const chat = await replay('error_chat_unknown_model');
    expectChat(chat.body);
    expect(chat.body.model).toBe('stories260K');
  });

  test("error_cmpl_n_over_slots: llama.cpp's numeric-code 400 becomes an OpenAI error naming `n`, streamed or not", async () => {
    const expected = {
      message: "Field 'n': Value must be between 1 <= value <= 4, but got 8",
      type: 'invalid_request_error',
      param: 'n',
      code: null,
    };
    const out = await replay('error_cmpl_n_over_slots');
    expect(out.sent[0].n).toBe(8);
    expect(out.status).toBe(400);
    expect(out.body).toEqual({ error: expected, detail: [{ loc: ['body', 'n'], msg: expected.message, type: 'invalid_request_error' }] });
    // A stream's first error comes back as a plain HTTP error, before any SSE byte.
    const streamed = await replay('error_cmpl_n_over_slots', (body) => {
      body.stream = true;
    });
    expect(streamed.status).toBe(400);
    expect(streamed.body.error).toEqual(expected);
  });

  test('chat_logprobs: OpenAI logprobs content, without llama.cpp `id`s', async () => {
    const out = await replay('chat_logprobs');
    expect(out.sent[0]).toMatchObject({ logprobs: true, top_logprobs: 2 });
    expectChat(out.body, true);
    const [choice] = out.body.choices;
    expect(choice.logprobs.content.map((entry: Json) => entry.token).join('')).toBe(choice.message.content);
    expect(choice.logprobs.content[0]).toEqual({
      token: '"',
      logprob: -1.205102801322937,
      bytes: [34],
      top_logprobs: [
        { token: '"', logprob: -1.205102801322937, bytes: [34] },
        { token: 'H', logprob: -2.3765790462493896, bytes: [72] },
      ],
    });
    expect(choice.logprobs.refusal).toBeNull();
  });

  test('chat_json_object, chat_json_schema: response_format relayed as asked; the content is JSON', async () => {
    for (const name of ['chat_json_object', 'chat_json_schema']) {
      const out = await replay(name);
      const asked = JSON.parse(readCapture(`${name}.request.json`)) as Json;
      expect(out.sent[0].response_format).toEqual(asked.response_format);
      expectChat(out.body);
      expect(() => JSON.parse(out.body.choices[0].message.content)).not.toThrow();
    }
  });

  test('cmpl_stream_usage: completions chunks, then usage in its own chunk (llama.cpp put it on the finish chunk)', async () => {
    const out = await replay('cmpl_stream_usage');
    expect(out.sent[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const chunks = expectStream(out.frames, 'text_completion', 1);
    expect(textOf(chunks)).toBe(', there was a little girl named Lily. She loved to play');
    expect(chunks.filter((chunk) => chunk.choices.some((choice: Json) => choice.finish_reason))[0].usage).toBeUndefined();
    expect(usageChunks(chunks)).toEqual([
      {
        ...chunks[0],
        choices: [],
        usage: { prompt_tokens: 5, completion_tokens: 16, total_tokens: 21, prompt_tokens_details: { cached_tokens: 4 } },
      },
    ]);
    expect(chunks.at(-1)?.usage).toBeDefined();
  });

  test('cmpl_stream_include_usage_false: the caller opted out, so no usage (the proxy still asks upstream)', async () => {
    const out = await replay('cmpl_stream_include_usage_false');
    expect(out.sent[0].stream_options).toEqual({ include_usage: true });
    expect(usageChunks(expectStream(out.frames, 'text_completion', 1))).toEqual([]);
  });

  test('cmpl_stream_logprobs2: legacy logprobs per chunk, text_offset continuing across chunks', async () => {
    const out = await replay('cmpl_stream_logprobs2');
    const chunks = expectStream(out.frames, 'text_completion', 1);
    let offset = 0;
    for (const choice of chunks.flatMap((chunk) => chunk.choices).filter((choice: Json) => choice.text !== '')) {
      expectLegacyLogprobs(choice.logprobs, choice.text, 2, offset);
      offset += choice.text.length;
    }
    expect(offset).toBe(', there was a'.length);
  });

  test('cmpl_n2_stream: interleaved choices; usage counts the prompt once and both completions', async () => {
    const out = await replay('cmpl_n2_stream');
    const chunks = expectStream(out.frames, 'text_completion', 2);
    expect([textOf(chunks, 0), textOf(chunks, 1)]).toEqual([', there was a', ', there was a']);
    expect(usageChunks(chunks).map((chunk) => chunk.usage)).toEqual([
      { prompt_tokens: 5, completion_tokens: 8, total_tokens: 13, prompt_tokens_details: { cached_tokens: 4 } },
    ]);
  });

  test('chat_stream_usage: role first, usage chunk with empty choices last, [DONE]', async () => {
    const out = await replay('chat_stream_usage');
    const chunks = expectStream(out.frames, 'chat.completion.chunk', 1);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 50, completion_tokens: 16, total_tokens: 66, prompt_tokens_details: { cached_tokens: 49 } },
    });
  });

  test('chat_stream_no_usage: no include_usage asked, none given', async () => {
    const out = await replay('chat_stream_no_usage');
    const chunks = expectStream(out.frames, 'chat.completion.chunk', 1);
    expect(textOf(chunks)).toBe('"Here');
    expect(chunks.filter((chunk) => chunk.usage)).toEqual([]);
  });

  test('chat_stream_logprobs: each delta carries its logprobs in OpenAI shape', async () => {
    const out = await replay('chat_stream_logprobs');
    const deltas = expectStream(out.frames, 'chat.completion.chunk', 1)
      .flatMap((chunk) => chunk.choices)
      .filter((choice: Json) => choice.delta.content);
    expect(deltas).toHaveLength(4);
    for (const choice of deltas) {
      expect(choice.logprobs.content.map((entry: Json) => entry.token).join('')).toBe(choice.delta.content);
      for (const entry of choice.logprobs.content) expect(Object.keys(entry).sort()).toEqual(['bytes', 'logprob', 'token', 'top_logprobs']);
    }
  });
});
