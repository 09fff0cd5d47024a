/**
 * `npm run bench -- --paired`: dialect-proxy and Express +
 * http-proxy-middleware (hpm) loaded at the same moment, both on one core,
 * each by a load generator of its own. What is compared is CPU time per
 * request, and both pay the machine's speed of that moment: on a shared
 * machine whose speed moves 1.5-2.5x within minutes, the ratio of a paired
 * round stays within a few percent of the next one, where the ratio of loads
 * taken in turn (`--remote`) moves by tens of percent. Two dialect-proxy
 * processes are paired the same way for Messages beside chat. When the core
 * is the limit, requests per second go as the inverse of the ratio.
 */
import { loadFromChild, median, treeCpuSeconds } from './children.js';
import { runLoad, type Scenario } from './measure.js';
import { check, geminiScenarios, messagesScenarios, other, scenarios, withTargets } from './remote.js';
import { startCli, startHpm, type Running } from './targets.js';
import { agentScenarios, capturesFound } from './agents.js';
import type { ClientResult } from './workers-client.js';

export interface PairedOptions {
  seconds: number;
  rounds: number;
  /** Connections of each of the two loads. */
  connections: number;
  tokens: number;
  /** Only the pairs whose scenario name contains one of these (case-insensitive); every pair when absent. */
  only?: string[];
}

/** One pair: `name`'s CPU per request over `against`'s, each round. */
export interface PairedRow {
  scenario: string;
  name: string;
  against: string;
  ratios: number[];
  /** Each round's microseconds of CPU per request of the two sides: [name's, against's]. */
  micros: [number, number][];
}

export interface PairedReport {
  placement: string;
  rows: PairedRow[];
  /** The agents' turns one at a time on one connection: the latency each path adds (`--paired` only). */
  turns?: TurnLatency[];
  errors: string[];
}

/** One agent turn's median latency at one connection, in ms: straight to the mock, through hpm, through dialect-proxy. */
export interface TurnLatency {
  scenario: string;
  /** Time to the stream's first byte, and to its end, by path. */
  firstByte: Record<TurnPath, number>;
  whole: Record<TurnPath, number>;
}

type TurnPath = 'mock' | 'hpm' | 'dialect-proxy';

/** A target under one load: where it listens, its process, what it is sent. */
export interface Side {
  name: string;
  running: Running;
  scenario: Scenario;
}

/** One load of `side` from a process of its own. */
const client = (side: Side, connections: number, seconds: number): Promise<ClientResult> =>
  loadFromChild({
    port: side.running.port,
    path: side.scenario.path,
    body: side.scenario.body,
    headers: side.scenario.headers,
    concurrency: connections,
    seconds,
  });

/** Both sides loaded at once: `a`'s CPU per request over `b`'s (each process's and its children's, as a peer may serve from a child). */
async function pairedRound(a: Side, b: Side, options: PairedOptions, seconds: number, errors: string[]): Promise<[number, number]> {
  const cpu = (side: Side) => treeCpuSeconds(side.running.process.pid!) ?? NaN;
  const before = [cpu(a), cpu(b)];
  const [ra, rb] = await Promise.all([client(a, options.connections, seconds), client(b, options.connections, seconds)]);
  const after = [cpu(a), cpu(b)];
  for (const [side, result] of [
    [a, ra],
    [b, rb],
  ] as const) {
    if (result.errors > 0) errors.push(`${side.scenario.name}, ${side.name}: ${result.errors} failed`);
  }
  return [((after[0] - before[0]) / ra.requests) * 1e6, ((after[1] - before[1]) / rb.requests) * 1e6];
}

/**
 * A warm-up of two rounds' length first: a process's CPU per request falls 2-3x over its first few thousand
 * requests of a kind (compiled code, a young generation grown to fit), and each pair's processes meet their
 * scenario for the first time.
 */
export async function pair(a: Side, b: Side, options: PairedOptions, errors: string[]): Promise<PairedRow | undefined> {
  const name = a.scenario.name.toLowerCase();
  if (options.only && !options.only.some((part) => name.includes(part.toLowerCase()))) return undefined;
  try {
    for (const side of [a, b]) await check(side.name, side.running.port, side.scenario, options.tokens);
  } catch (error) {
    // One broken scenario is reported, and the others are still measured.
    errors.push((error as Error).message.slice(0, 300));
    return undefined;
  }
  await pairedRound(a, b, options, 2 * options.seconds, []);
  const micros: [number, number][] = [];
  for (let round = 0; round < options.rounds; round++) micros.push(await pairedRound(a, b, options, options.seconds, errors));
  return { scenario: a.scenario.name, name: a.name, against: b.name, ratios: micros.map(([x, y]) => x / y), micros };
}

export function benchPaired(options: PairedOptions): Promise<PairedReport> {
  return withTargets('paired', async ({ targetCpus, placement: alone, dir, processes }) => {
    const placement = targetCpus
      ? `both targets of a pair on CPU ${targetCpus.join(',')}; the mock upstream and the two load generators on the other CPUs (taskset)`
      : alone;
    const errors: string[] = [];
    const mock = await processes.mock([String(options.tokens)]);
    const [hpm, toChat, toCompletions, toChatAgain] = await processes.proxies([
      startHpm(mock.port),
      startCli('chat-backend', { kind: 'openai', speaks: ['chat'] }, mock.port, dir),
      startCli('completions-backend', { kind: 'fireworks', speaks: ['completions'] }, mock.port, dir),
      startCli('chat-backend-again', { kind: 'openai', speaks: ['chat'] }, mock.port, dir),
    ]);
    const dialectProxy = { chat: toChat, completions: toCompletions };
    const rows: PairedRow[] = [];
    const push = (row: PairedRow | undefined) => row && rows.push(row);
    for (const scenario of scenarios(options.tokens)) {
      const reference: Side = { name: 'hpm', running: hpm, scenario };
      const same: Side = { name: 'same dialect', running: dialectProxy[scenario.dialect], scenario };
      const translated: Side = { name: 'translated', running: dialectProxy[other[scenario.dialect]], scenario };
      push(await pair(same, reference, options, errors));
      push(await pair(translated, reference, options, errors));
    }
    for (const { chat, messages } of messagesScenarios(options.tokens)) {
      const a: Side = { name: 'Messages', running: toChat, scenario: messages };
      const b: Side = { name: 'chat', running: toChatAgain, scenario: chat };
      push(await pair(a, b, options, errors));
    }
    for (const { chat, gemini } of geminiScenarios(options.tokens)) {
      const a: Side = { name: 'Gemini', running: toChat, scenario: gemini };
      const b: Side = { name: 'chat', running: toChatAgain, scenario: chat };
      push(await pair(a, b, options, errors));
    }
    // An agent's turn translated to a chat backend, against hpm piping the same body (the mock answers it in chat's shape).
    if (!capturesFound()) errors.push('no ../shared/captures here: the agent turns were not measured');
    const turns: TurnLatency[] = [];
    for (const scenario of agentScenarios()) {
      const translated: Side = { name: 'translated', running: toChat, scenario };
      // A Gemini body says nothing of streaming (its URL does): the mock behind hpm is asked in the body.
      const body = JSON.stringify({ stream: true, ...(JSON.parse(scenario.body) as Record<string, unknown>) });
      const piped: Side = { name: 'hpm', running: hpm, scenario: { ...scenario, body, streamEnd: 'data: [DONE]', tokenMark: ' word' } };
      const row = await pair(translated, piped, options, errors);
      if (!row) continue;
      rows.push(row);
      turns.push(await turnLatency(scenario, { mock, hpm: piped, proxy: translated }, options, errors));
    }
    return { placement, rows, turns, errors };
  });
}

/**
 * An agent's turn sent one at a time on one connection, to each path in turn (`rounds` rounds of a second each):
 * the medians of the rounds' median latencies. The issue's goal: dialect-proxy adds under 2 ms to a turn.
 */
async function turnLatency(
  scenario: Scenario,
  paths: { mock: Running; hpm: Side; proxy: Side },
  options: PairedOptions,
  errors: string[],
): Promise<TurnLatency> {
  const runs: [TurnPath, Running, Scenario][] = [
    ['mock', paths.mock, paths.hpm.scenario],
    ['hpm', paths.hpm.running, paths.hpm.scenario],
    ['dialect-proxy', paths.proxy.running, scenario],
  ];
  const rounds = new Map<TurnPath, { firstByte: number[]; whole: number[] }>(runs.map(([path]) => [path, { firstByte: [], whole: [] }]));
  for (let round = 0; round < options.rounds; round++) {
    for (const [path, running, sent] of runs) {
      const pid = running.process.pid!;
      const figures = await runLoad({
        port: running.port,
        scenario: sent,
        connections: 1,
        seconds: 1,
        pid,
        mockPid: paths.mock.process.pid!,
      });
      if (figures.errors > 0)
        errors.push(`${scenario.name}, one connection, ${path}: ${figures.errors} failed (${figures.errorSample ?? ''})`);
      rounds.get(path)!.firstByte.push(figures.ttfbP50);
      rounds.get(path)!.whole.push(figures.p50);
    }
  }
  const of = (part: 'firstByte' | 'whole') =>
    Object.fromEntries(runs.map(([path]) => [path, median(rounds.get(path)![part])])) as Record<TurnPath, number>;
  return { scenario: scenario.name, firstByte: of('firstByte'), whole: of('whole') };
}

const times = (value: number) => `${value.toFixed(2)}x`;

/** A paired row's first cells: scenario, the two sides, the median ratio and the rounds' range, each side's median microseconds. */
export function pairedCells(row: PairedRow): string {
  const sorted = [...row.ratios].sort((x, y) => x - y);
  const us = (side: 0 | 1) => Math.round(median(row.micros.map((each) => each[side])));
  return `| ${row.scenario} | ${row.name} | ${row.against} | ${times(median(row.ratios))} | ${times(sorted[0])}-${times(sorted[sorted.length - 1])} | ${us(0)} / ${us(1)} |`;
}

export function printPaired(report: PairedReport, options: PairedOptions): void {
  console.log(
    `\nPaired: two targets loaded at the same moment, ${options.connections} connections each, ${options.seconds} s, ${options.rounds} rounds; CPU per request of the first over the second's (below 1: cheaper), the median of the rounds and their range`,
  );
  console.log(`placement: ${report.placement}\n`);
  console.log('| scenario | dialect-proxy | against | CPU per request | rounds | us per request (each side) |');
  console.log('|---|---|---|---|---|---|');
  for (const row of report.rows) console.log(pairedCells(row));
  if (report.turns?.length) {
    const ms = (value: number) => `${value.toFixed(2)} ms`;
    console.log(
      `\nAgent turns one at a time on one connection (${options.rounds} rounds of 1 s per path, the median): to the stream's first byte and to its end, straight to the mock, through hpm and through dialect-proxy; what dialect-proxy adds to the mock's (goal, issue 40: under 2 ms)\n`,
    );
    console.log(
      '| turn | first byte: mock / hpm / dialect-proxy | end: mock / hpm / dialect-proxy | dialect-proxy adds (first byte / end) |',
    );
    console.log('|---|---|---|---|');
    for (const { scenario, firstByte, whole } of report.turns) {
      const three = (value: Record<TurnPath, number>) => `${ms(value.mock)} / ${ms(value.hpm)} / ${ms(value['dialect-proxy'])}`;
      const added = `${ms(firstByte['dialect-proxy'] - firstByte.mock)} / ${ms(whole['dialect-proxy'] - whole.mock)}`;
      console.log(`| ${scenario} | ${three(firstByte)} | ${three(whole)} | ${added} |`);
    }
  }
  for (const error of report.errors) console.log(`error: ${error}`);
}
