/**
 * `npm run bench -- --stages`: a request's fixed cost by part, in process.
 * The parts a translated request goes through before its first byte goes
 * upstream (read, validate, parse, route, plan, the wire body) and after its
 * answer (the caller's chunk for each streamed token, the record: metrics and
 * the log line), each timed alone, for one chat request routed to a chat
 * backend (same dialect), to a completions-only backend (translated), and the
 * same request in Anthropic Messages and in Gemini (bound to its streaming
 * URL, as the server finds it). Parts run in rounds that alternate
 * between them (the first round of a cold process costs 2-4x the next ones);
 * the median round is kept, in microseconds of CPU per request. What the
 * server adds around them (Node's HTTP parsing, undici's request, the sockets)
 * is the rest of the CPU per request that `--remote` measures.
 */
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import type { Dialect } from '../src/dialects/dialect.js';
import { DIALECTS } from '../src/dialects/registry.js';
import { createLogger } from '../src/logging/logger.js';
import type { NeutralRequest } from '../src/model/request.js';
import { RequestRecord } from '../src/pipeline/answer/request-record.js';
import { planRequest } from '../src/pipeline/plan/plan.js';
import { routedCall } from '../src/http/routed-dialects.js';
import { JsonBudgetCounter } from '../src/pipeline/request/json-budget.js';
import { DEFAULT_LIMITS } from '../src/config/settings.js';
import { requestIdOf } from '../src/pipeline/request/request-id.js';
import type { ProxyRuntime } from '../src/pipeline/runtime.js';
import { loadConfig } from '../src/runtime/configuration.js';
import { createRuntime } from '../src/runtime/create-runtime.js';
import { agentScenarios } from './agents.js';
import { median } from './children.js';

const ROUNDS = 15;
/** Each part's runs per round: long enough to time, short enough for the rounds to alternate often. */
const RUNS = 1000;

const chat = {
  model: 'bench',
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Tell me a story about a lighthouse keeper.' },
  ],
  max_tokens: 64,
  temperature: 0.7,
  stream: true,
  stream_options: { include_usage: true },
};
const messages = {
  model: 'bench',
  system: 'You are a helpful assistant.',
  messages: [{ role: 'user', content: 'Tell me a story about a lighthouse keeper.' }],
  max_tokens: 64,
  temperature: 0.7,
  stream: true,
};

const gemini = {
  systemInstruction: { parts: [{ text: 'You are a helpful assistant.' }] },
  contents: [{ role: 'user', parts: [{ text: 'Tell me a story about a lighthouse keeper.' }] }],
  generationConfig: { maxOutputTokens: 64, temperature: 0.7 },
};

interface Case {
  name: string;
  /** Runs per round: an agent's 50 KB body takes a hundred times a small one's. */
  runs?: number;
  dialect: Dialect['name'];
  backend: string;
  body: Record<string, unknown>;
  /** The URL of a dialect whose URL carries part of the request (Gemini's model and stream). */
  url?: string;
}

const CASES: Case[] = [
  { name: 'chat, same dialect', dialect: 'openai-chat', backend: 'chat', body: chat },
  { name: 'chat, translated', dialect: 'openai-chat', backend: 'completions', body: chat },
  { name: 'Messages, translated', dialect: 'anthropic-messages', backend: 'chat', body: messages },
  {
    name: 'Gemini, translated',
    dialect: 'gemini',
    backend: 'chat',
    body: gemini,
    url: '/v1beta/models/bench:streamGenerateContent?alt=sse',
  },
  ...agentCases(),
];

/** Each agent's captured first turn translated to a chat backend, where ../shared/captures is here. */
function agentCases(): Case[] {
  return agentScenarios().map(({ name, speaks, path: url, body }) => ({
    name: name.replace(/ \(.*/, ''),
    runs: 20,
    dialect: speaks,
    backend: 'chat',
    body: JSON.parse(body) as Record<string, unknown>,
    url,
  }));
}

type Part = readonly [name: string, run: () => unknown];

const nowhere = () => new Writable({ write: (_chunk, _encoding, done) => done() });

export interface StageRow {
  name: string;
  /** Microseconds per request, by part, in the order run. */
  parts: [string, number][];
}

export async function benchStages(): Promise<StageRow[]> {
  // Never called: the backends are only planned for, and their wire bodies built.
  const config = loadConfig({
    server: { logLevel: 'info' },
    backends: {
      chat: { kind: 'openai', url: 'http://127.0.0.1:9/v1', speaks: ['chat'] },
      completions: { kind: 'fireworks', url: 'http://127.0.0.1:9/v1', speaks: ['completions'] },
    },
    routes: [{ model: '*', backend: 'chat' }],
  });
  const logger = createLogger({ level: 'info', json: true, stream: nowhere() });
  const runtime = await createRuntime(config, { logger });
  try {
    // The server loads a dialect's validators on its first request; here, before the clock starts.
    for (const { dialect } of CASES) await runtime.validator.prepare(DIALECTS.find((each) => each.name === dialect)!.document);
    return CASES.map((each) => ({ name: each.name, parts: timeParts(partsOf(runtime, each), each.runs ?? RUNS) }));
  } finally {
    await runtime.close();
  }
}

function partsOf(runtime: ProxyRuntime, { dialect: name, backend, body, url }: Case): Part[] {
  const fixed = new Map(DIALECTS.map((each) => [each.path, each]));
  const unbound = DIALECTS.find((each) => each.name === name)!;
  // What the server does to find the dialect: a map of fixed paths, else a routed dialect bound to the URL.
  const dialectOf = () => fixed.get((url ?? unbound.path).split('?')[0]) ?? routedCall(url ?? '')?.dialect;
  const dialect = dialectOf()!;
  const text = JSON.stringify(body);
  const bytes = Buffer.from(text);
  const headers = { 'content-type': 'application/json' };
  const req = { headers } as unknown as IncomingMessage;
  const match = { ...runtime.routes.match('bench'), backend: runtime.backends.get(backend)! };
  const request: NeutralRequest = dialect.parseRequest(body, headers);
  const plan = planRequest(request, match);
  const tokens = Array.from({ length: 8 }, (_, i) => ` word${i}`);
  // The same runtime with the log line off (the level the remote bench runs at), to tell the line's cost apart.
  const quiet: ProxyRuntime = { ...runtime, logger: createLogger({ level: 'warn', stream: nowhere() }) };
  return [
    ['dialect of the URL', dialectOf],
    // As the server reads a body: its bytes counted (sizes, depth) as they arrive, decoded, then parsed.
    ['read (bytes counted, decoded, parsed)', () => (new JsonBudgetCounter(DEFAULT_LIMITS).write(bytes), JSON.parse(bytes.toString()))],
    ['names (normalizeBody)', () => dialect.normalizeBody?.(body)],
    ['validate', () => runtime.validator.validate(dialect.document, body)],
    ['parse', () => dialect.parseRequest(body, headers)],
    ['route', () => runtime.routes.match(request.model)],
    ['plan', () => planRequest(request, match)],
    ['wire body (built, stringified)', () => JSON.stringify(match.backend.adapter.toWire(plan.request))],
    [
      'per token: serialize, frame',
      () => {
        const serializer = dialect.streamSerializer(plan.request);
        const out: Record<string, unknown>[] = [];
        serializer.push({ type: 'response-start', id: 'bench', created: 1_700_000_000, model: 'bench' }, out);
        for (const delta of tokens) serializer.push({ type: 'text-delta', choice: 0, delta }, out);
        let bytes = 0;
        for (const chunk of out) bytes += dialect.sse.frame(chunk).length;
        return bytes;
      },
    ],
    [
      // A stream's ends: its serializer made, started, a choice's end and the usage, the closing chunks.
      'per stream: open and close, framed',
      () => {
        const serializer = dialect.streamSerializer(plan.request, runtime.dialectContext);
        const out: Record<string, unknown>[] = [];
        serializer.push({ type: 'response-start', id: 'bench', created: 1_700_000_000, model: 'bench' }, out);
        serializer.push({ type: 'choice-end', choice: 0, finishReason: 'stop' }, out);
        serializer.push({ type: 'usage', usage: { promptTokens: 12, completionTokens: 64, totalTokens: 76 } }, out);
        serializer.finish(out);
        let bytes = dialect.sse.end.length;
        for (const chunk of out) bytes += dialect.sse.frame(chunk).length;
        return bytes;
      },
    ],
    ['request id', () => requestIdOf(req)],
    ['record, metrics', () => record(quiet)],
    ['record, metrics, log line (info)', () => record(runtime)],
  ];
  function record(recording: ProxyRuntime): void {
    const made = new RequestRecord(recording, dialect, 'req_bench', headers);
    made.routed(request, match);
    made.finish();
  }
}

/** Microseconds per run of each part: the median of ROUNDS rounds, the parts alternating within each round. */
function timeParts(parts: Part[], runs: number): [string, number][] {
  const rounds = parts.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    parts.forEach(([, run], index) => {
      const started = process.cpuUsage();
      for (let i = 0; i < runs; i++) run();
      const used = process.cpuUsage(started);
      rounds[index].push((used.user + used.system) / runs);
    });
  }
  // The streamed part runs 8 tokens: per token.
  return parts.map(([name], index) => [name, median(rounds[index]) / (name.startsWith('per token') ? 8 : 1)]);
}

export function printStages(rows: StageRow[]): void {
  console.log(`\nA request's fixed cost by part, in process (us of CPU; median of ${ROUNDS} rounds of ${RUNS}, parts alternating)\n`);
  const names = rows[0].parts.map(([name]) => name);
  console.log(`| part | ${rows.map(({ name }) => name).join(' | ')} |`);
  console.log(`|---|${rows.map(() => '---').join('|')}|`);
  for (const [i, name] of names.entries()) console.log(`| ${name} | ${rows.map(({ parts }) => parts[i][1].toFixed(2)).join(' | ')} |`);
  // The tokens are per token, and "record, metrics" is inside the record with its log line.
  const before = (row: StageRow) =>
    row.parts.filter(([name]) => !name.startsWith('per token') && name !== 'record, metrics').reduce((sum, [, us]) => sum + us, 0);
  console.log(`| **per request (log line on), without the tokens** | ${rows.map((row) => `**${before(row).toFixed(1)}**`).join(' | ')} |`);
}
