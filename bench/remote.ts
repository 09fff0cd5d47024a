/**
 * The remote side of `npm run bench`, side by side in one run so that a noisy
 * shared machine weighs on every target alike. Targets, each its own process:
 * the mock upstream alone, a bare node:http pass-through (the floor),
 * Express + http-proxy-middleware ("hpm", what users run today), and
 * dialect-proxy (the CLI) same-dialect and translated in both directions. The
 * pass-throughs relay the caller's own dialect to the mock's same path: the
 * translated rows compare with that, as a user would who swapped one for the
 * other.
 *
 * Three parts: loads at `connections` connections (rounds alternate between
 * targets; the median of the rounds is kept), the same one connection at a
 * time (latency each target adds to the mock's), and the pacing probe (a mock
 * that sends a stream event every few ms: does each event leave at once?).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { allowedCpus, idleRss, pin, processTree } from './children.js';
import { medianOf, runLoad, type Figures, type Scenario } from './measure.js';
import { startCli, startHpm, startMock, startPassThrough, stop, type Running } from './targets.js';

export interface RemoteOptions {
  seconds: number;
  rounds: number;
  connections: number;
  /** Tokens per stream of the loads. */
  tokens: number;
  sequentialSeconds: number;
  probeSeconds: number;
  probeIntervalMs: number;
}

/** The targets of a scenario, by role: dialect-proxy's two depend on the caller's dialect. */
export const roles = ['direct', 'bare', 'hpm', 'same', 'translated'] as const;
export type Role = (typeof roles)[number];

export const other = { chat: 'completions', completions: 'chat' } as const;

export function roleName(role: Role, dialect: Scenario['dialect']): string {
  switch (role) {
    case 'direct':
      return 'mock upstream direct';
    case 'bare':
      return 'node:http pass-through';
    case 'hpm':
      return 'Express + http-proxy-middleware';
    case 'same':
      return `dialect-proxy, ${dialect} -> ${dialect} backend`;
    case 'translated':
      return `dialect-proxy, ${dialect} -> ${other[dialect]} backend (translated)`;
  }
}

/** A process under test, with its memory. */
export interface Target {
  name: string;
  running: Running;
  /** Resident memory 1-2 s after start, and idle (the lowest over 30 s), before any request (children.ts, idleRss). */
  startRss: number;
  idleRss: number;
  /** The highest sampled during the loads (0: unknown). */
  peakRss: number;
}

export interface ScenarioResult {
  scenario: Scenario;
  figures: Record<Role, Figures>;
}

export interface RemoteReport {
  placement: string;
  scenarios: ScenarioResult[];
  targets: Target[];
  /** One connection: the median over rounds of each target's median latency, per scenario. */
  sequential: { scenario: Scenario; p50: Record<Role, number> }[];
  /** The same requests in Messages and in chat, through one dialect-proxy to a chat backend: what the fourth dialect costs. */
  messages: { name: string; chat: Figures; messages: Figures }[];
  /** Time to first byte of a chat stream paced event by event, one connection: median over rounds of p50 and p99. */
  probe: { role: Exclude<Role, 'translated'>; p50: number; p99: number }[];
  errors: string[];
}

const chatBody = (stream: boolean, tokens: number) =>
  JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'Tell me a story.' }], max_tokens: tokens, stream });
const messagesBody = (stream: boolean, tokens: number) =>
  JSON.stringify({ model: 'bench', max_tokens: tokens, messages: [{ role: 'user', content: 'Tell me a story.' }], stream });
const geminiBody = (tokens: number) =>
  JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Tell me a story.' }] }], generationConfig: { maxOutputTokens: tokens } });
const completionsBody = (stream: boolean, tokens: number) =>
  JSON.stringify({ model: 'bench', prompt: 'Once upon a time', max_tokens: tokens, stream });

export function scenarios(tokens: number): Scenario[] {
  return [
    { name: 'chat, JSON', dialect: 'chat', path: '/v1/chat/completions', stream: false, body: chatBody(false, tokens) },
    { name: `chat, stream (${tokens} tokens)`, dialect: 'chat', path: '/v1/chat/completions', stream: true, body: chatBody(true, tokens) },
    { name: 'completions, JSON', dialect: 'completions', path: '/v1/completions', stream: false, body: completionsBody(false, tokens) },
    {
      name: `completions, stream (${tokens} tokens)`,
      dialect: 'completions',
      path: '/v1/completions',
      stream: true,
      body: completionsBody(true, tokens),
    },
  ];
}

/** The chat scenarios again, their bodies in Anthropic's Messages API: the same request, the same upstream call. */
export function messagesScenarios(tokens: number): { chat: Scenario; messages: Scenario }[] {
  return scenarios(tokens)
    .filter((scenario) => scenario.dialect === 'chat')
    .map((chat) => ({
      chat,
      messages: {
        ...chat,
        name: chat.name.replace('chat', 'Messages'),
        path: '/v1/messages',
        body: messagesBody(chat.stream, tokens),
        streamEnd: 'data: {"type":"message_stop"}',
      },
    }));
}

/** The chat scenarios again, their bodies in Google's Gemini API (the model and the stream in the URL): the same upstream call. */
export function geminiScenarios(tokens: number): { chat: Scenario; gemini: Scenario }[] {
  return scenarios(tokens)
    .filter((scenario) => scenario.dialect === 'chat')
    .map((chat) => ({
      chat,
      gemini: {
        ...chat,
        name: chat.name.replace('chat', 'Gemini'),
        path: chat.stream ? '/v1beta/models/bench:streamGenerateContent?alt=sse' : '/v1beta/models/bench:generateContent',
        body: geminiBody(tokens),
        streamEnd: '}',
      },
    }));
}

/** Once started processes have settled, their idle memory (children.ts, idleRss). */
async function settle(entries: [string, Running][]): Promise<Target[]> {
  const idle = await idleRss(
    entries.map(([, running]) => running.process.pid!),
    30_000,
  );
  return entries.map(([name, running], index) => ({
    name,
    running,
    startRss: idle[index].early,
    idleRss: idle[index].settled,
    peakRss: 0,
  }));
}

/** One reply, read whole and checked: the mock's text is all there (every token of a stream). Measuring a broken target is worthless. */
export async function check(name: string, port: number, scenario: Scenario, tokens: number): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
    method: 'POST',
    body: scenario.body,
    headers: { 'content-type': 'application/json', ...scenario.headers },
  });
  const text = await response.text();
  const words = text.split(scenario.tokenMark ?? ' word').length - 1;
  const good =
    response.status === 200 &&
    (scenario.stream
      ? words === tokens && text.trimEnd().endsWith(scenario.streamEnd ?? 'data: [DONE]')
      : text.includes('Once upon a time'));
  if (!good)
    throw new Error(`${name}, ${scenario.name}: not the mock's reply (status ${response.status}, ${words} tokens): ${text.slice(0, 500)}`);
}

/** Loads each target in turn, `rounds` times, alternating the order; the median of the rounds per target. Failures go to `errors`, under `what`. */
async function alternate<R extends string>(
  what: string,
  order: R[],
  rounds: number,
  measure: (role: R) => Promise<Figures & { errorSample?: string }>,
  errors: string[],
): Promise<Record<R, Figures>> {
  const results = new Map<R, Figures[]>(order.map((role) => [role, []]));
  for (let round = 0; round < rounds; round++) {
    for (const role of round % 2 === 0 ? order : [...order].reverse()) {
      const figures = await measure(role);
      if (figures.errorSample) errors.push(`${what}, ${role}: ${figures.errors} failed, e.g. ${figures.errorSample}`);
      results.get(role)!.push(figures);
    }
  }
  return Object.fromEntries(order.map((role) => [role, medianOf(results.get(role)!)])) as Record<R, Figures>;
}

/** Where processes run: the target alone on the first CPU; this process (the load generator), and so the mocks it forks, on the others. */
export function placeOnCores(): { targetCpus?: number[]; placement: string; restore(): void } {
  const cpus = allowedCpus();
  const restore = () => {
    if (cpus) pin(process.pid, cpus); // what comes next in this process shares the cores as before
  };
  if (cpus && cpus.length >= 2 && pin(process.pid, cpus.slice(1))) {
    const placement = `each target process on CPU ${cpus[0]} (only the one under load is busy); the mock upstream and the load generator (the bench's own process) on CPU ${cpus.slice(1).join(',')}, so "mock upstream direct" shares that CPU with the load generator (taskset)`;
    return { targetCpus: [cpus[0]], placement, restore };
  }
  return { placement: 'not pinned (needs Linux, taskset and 2 CPUs or more): the OS places every process', restore };
}

/** What a bench run's targets share: their CPUs, where their configs and logs go, the processes to stop. */
export interface TargetRun {
  targetCpus?: number[];
  /** Where the processes run, in words (placeOnCores). */
  placement: string;
  dir: string;
  processes: Processes;
}

/** `run` with targets placed on cores and a scratch directory, all stopped and removed however it ends. */
export async function withTargets<T>(name: string, run: (targets: TargetRun) => Promise<T>): Promise<T> {
  const { targetCpus, placement, restore } = placeOnCores();
  const dir = mkdtempSync(join(tmpdir(), `dialect-proxy-${name}-`));
  const processes = new Processes(targetCpus);
  try {
    return await run({ ...(targetCpus ? { targetCpus } : {}), placement, dir, processes });
  } finally {
    await processes.stopAll();
    rmSync(dir, { recursive: true, force: true });
    restore();
  }
}

/** The processes started, to stop them all whatever happens; proxies pinned to the targets' CPU. */
export class Processes {
  private readonly started: Running[] = [];

  constructor(private readonly targetCpus: number[] | undefined) {}

  /** A mock upstream, left on this process's CPU. */
  async mock(args: string[]): Promise<Running> {
    const running = await startMock(args);
    this.started.push(running);
    return running;
  }

  /** Proxies started together, then pinned, now that their threads (and a peer's child processes) exist. */
  async proxies(starting: Promise<Running>[]): Promise<Running[]> {
    const outcomes = await Promise.allSettled(starting);
    for (const outcome of outcomes) if (outcome.status === 'fulfilled') this.started.push(outcome.value);
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
    const running = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<Running>).value);
    const cpus = this.targetCpus;
    if (cpus) for (const { process: child } of running) for (const pid of processTree(child.pid!)) pin(pid, cpus);
    return running;
  }

  async stopAll(): Promise<void> {
    for (const running of this.started.splice(0)) await stop(running.process);
  }
}

/** The loads and the sequential mode's targets, in front of a mock that writes each reply whole, as fast as it can. */
async function startTargets(processes: Processes, dir: string, tokens: number) {
  const mock = await processes.mock([String(tokens)]);
  const [bare, hpm, toChat, toCompletions] = await processes.proxies([
    startPassThrough(mock.port),
    startHpm(mock.port),
    startCli('chat-backend', { kind: 'openai', speaks: ['chat'] }, mock.port, dir),
    startCli('completions-backend', { kind: 'fireworks', speaks: ['completions'] }, mock.port, dir),
  ]);
  const memory = await settle([
    ['mock upstream', mock],
    ['node:http pass-through', bare],
    ['Express + http-proxy-middleware', hpm],
    ['dialect-proxy -> chat backend (openai, speaks chat)', toChat],
    ['dialect-proxy -> completions backend (fireworks, speaks completions)', toCompletions],
  ]);
  const dialectProxy = { chat: toChat, completions: toCompletions };
  const processFor = (role: Role, scenario: Scenario): Running => {
    switch (role) {
      case 'direct':
        return mock;
      case 'bare':
        return bare;
      case 'hpm':
        return hpm;
      case 'same':
        return dialectProxy[scenario.dialect];
      case 'translated':
        return dialectProxy[other[scenario.dialect]];
    }
  };
  const load = (role: Role, scenario: Scenario, connections: number, seconds: number) => {
    const running = processFor(role, scenario);
    return runLoad({ port: running.port, scenario, connections, seconds, pid: running.process.pid!, mockPid: mock.process.pid! });
  };
  const targetOf = (role: Role, scenario: Scenario) => memory.find((target) => target.running === processFor(role, scenario))!;
  return { memory, processFor, load, targetOf };
}

/** Every scenario at `connections` connections; each process's peak memory kept on its Target. */
async function loads(
  targets: Awaited<ReturnType<typeof startTargets>>,
  options: RemoteOptions,
  errors: string[],
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const [index, scenario] of scenarios(options.tokens).entries()) {
    // Warm-up: code compiled, connections open. The first is a whole load: after the 30 s of idle that
    // measuring idle memory takes, V8 has shrunk the young generation and let code go cold (a 0.5 s
    // warm-up left the first measured round at 2-4x the next ones).
    const warmUpSeconds = index === 0 ? options.seconds : Math.min(0.5, options.seconds);
    for (const role of roles) {
      await check(roleName(role, scenario.dialect), targets.processFor(role, scenario).port, scenario, options.tokens);
      await targets.load(role, scenario, options.connections, warmUpSeconds);
    }
    const figures = await alternate(
      scenario.name,
      [...roles],
      options.rounds,
      (role) => targets.load(role, scenario, options.connections, options.seconds),
      errors,
    );
    results.push({ scenario, figures });
    for (const role of roles) {
      const target = targets.targetOf(role, scenario);
      target.peakRss = Math.max(target.peakRss, figures[role].peakRss || 0);
    }
  }
  return results;
}

/** Every scenario one request at a time: each target's median latency. */
async function sequentialMode(
  targets: Awaited<ReturnType<typeof startTargets>>,
  options: RemoteOptions,
  errors: string[],
): Promise<RemoteReport['sequential']> {
  const sequential: RemoteReport['sequential'] = [];
  for (const scenario of scenarios(options.tokens)) {
    const figures = await alternate(
      `${scenario.name}, sequential`,
      [...roles],
      options.rounds,
      (role) => targets.load(role, scenario, 1, options.sequentialSeconds),
      errors,
    );
    sequential.push({ scenario, p50: Object.fromEntries(roles.map((role) => [role, figures[role].p50])) as Record<Role, number> });
  }
  return sequential;
}

/**
 * Messages beside chat: one dialect-proxy routing to a chat backend takes the same request in
 * both dialects, rounds alternating. The goal: a Messages request costs within 10% of a chat one.
 */
async function messagesBesideChat(
  targets: Awaited<ReturnType<typeof startTargets>>,
  options: RemoteOptions,
  errors: string[],
): Promise<RemoteReport['messages']> {
  const results: RemoteReport['messages'] = [];
  for (const pair of messagesScenarios(options.tokens)) {
    const proxy = targets.processFor('same', pair.chat);
    const load = (which: 'chat' | 'messages', seconds: number) => targets.load('same', pair[which], options.connections, seconds);
    for (const which of ['chat', 'messages'] as const) {
      await check('dialect-proxy', proxy.port, pair[which], options.tokens);
      await load(which, Math.min(0.5, options.seconds));
    }
    const figures = await alternate(
      `${pair.messages.name} beside chat`,
      ['chat', 'messages'],
      options.rounds,
      (which) => load(which, options.seconds),
      errors,
    );
    results.push({ name: pair.messages.name, chat: figures.chat, messages: figures.messages });
  }
  return results;
}

/**
 * The pacing probe: another mock sends a chat stream's events each on its own, `probeIntervalMs` apart, and fresh
 * pass-throughs and a dialect-proxy routing chat to a chat backend stand in front of it. One connection: time to first byte.
 */
async function pacingProbe(processes: Processes, dir: string, options: RemoteOptions, errors: string[]): Promise<RemoteReport['probe']> {
  const tokens = 4;
  const paced = await processes.mock([String(tokens), String(options.probeIntervalMs), 'events']);
  const [bare, hpm, proxy] = await processes.proxies([
    startPassThrough(paced.port),
    startHpm(paced.port),
    startCli('paced-chat-backend', { kind: 'openai', speaks: ['chat'] }, paced.port, dir),
  ]);
  await sleep(1000); // settled
  const targets = { direct: paced, bare, hpm, same: proxy };
  const order = ['direct', 'bare', 'hpm', 'same'] as const;
  const [chatStream] = scenarios(tokens).filter((scenario) => scenario.dialect === 'chat' && scenario.stream);
  const probe = (role: keyof typeof targets, seconds: number) =>
    runLoad({
      port: targets[role].port,
      scenario: chatStream,
      connections: 1,
      seconds,
      pid: targets[role].process.pid!,
      mockPid: paced.process.pid!,
    });
  for (const role of order) {
    await check(`${roleName(role, 'chat')} (paced)`, targets[role].port, chatStream, tokens);
    await probe(role, 0.2); // warm-up
  }
  const figures = await alternate('pacing probe', [...order], options.rounds, (role) => probe(role, options.probeSeconds), errors);
  return order.map((role) => ({ role, p50: figures[role].ttfbP50, p99: figures[role].ttfbP99 }));
}

export function benchRemote(options: RemoteOptions): Promise<RemoteReport> {
  return withTargets('bench', async ({ placement, dir, processes }) => {
    const errors: string[] = [];
    const targets = await startTargets(processes, dir, options.tokens);
    const results = await loads(targets, options, errors);
    const sequential = await sequentialMode(targets, options, errors);
    const messages = await messagesBesideChat(targets, options, errors);
    await processes.stopAll();
    const probe = await pacingProbe(processes, dir, options, errors);
    return { placement, scenarios: results, targets: targets.memory, sequential, messages, probe, errors };
  });
}
