/**
 * `npm run load` (not part of `npm test`): many concurrent streaming chat
 * clients for a while, through each target in turn, side by side in one run.
 * Every target is its own process, in front of one pacing mock upstream
 * (bench/upstream.ts, its own process); the load generator
 * (bench/load-client.ts) is a third process. Targets:
 *
 * - `direct`: the mock itself, no proxy: the floor of the client and the mock;
 * - `translated`: dialect-proxy (node dist/src/cli.js, generated config) routing
 *   chat to a completions-only Fireworks backend, so every request translates;
 * - `same`: dialect-proxy routing chat to a chat backend (same dialect);
 * - `hpm`: Express + http-proxy-middleware relaying the same chat untranslated
 *   (bench/hpm.ts), what users run today.
 *
 * Reports per target: streams served, errors (must be 0: the exit code is 1
 * otherwise), time to first token p50/p99, and p99 apart for the streams sent
 * in the first 2 s and after them, the target's resident memory idle (before
 * the load) and at its peak (sampled every 250 ms), and CPU used (and per
 * stream: a token per packet, the realistic case, costs per packet). On Linux
 * with taskset and two CPUs or more, the target runs alone on the first CPU,
 * the rest (mock, load generator, this process) on the others.
 *
 * Two starts (LOAD_START): `cold`, the default, sends the clients as soon as
 * the target is ready (dialect-proxy's /healthz answers 200, the others
 * listen), as when a new replica joins a busy service; `settled` waits 2 s
 * first, for its idle memory, as before any traffic.
 *
 * Settings: LOAD_CONCURRENCY (500), LOAD_SECONDS (30), LOAD_TOKENS (32),
 * LOAD_INTERVAL_MS (20), LOAD_START (cold), LOAD_TARGETS (direct,translated,same,hpm).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowedCpus, cpuSeconds, idleRss, percentile, pin, residentBytes } from './children.js';
import type { LoadResult, LoadSettings } from './load-client.js';
import { startCli, startHpm, startMock, stop, type Running as Started } from './targets.js';

const concurrency = Number(process.env.LOAD_CONCURRENCY ?? 500);
const seconds = Number(process.env.LOAD_SECONDS ?? 30);
const tokens = Number(process.env.LOAD_TOKENS ?? 32);
const intervalMs = Number(process.env.LOAD_INTERVAL_MS ?? 20);
const start = process.env.LOAD_START ?? 'cold';
/** The cold start's window: the streams sent in it, and after it. */
const FIRST_S = 2;
const targetNames = (process.env.LOAD_TARGETS ?? 'direct,translated,same,hpm')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const streamMs = Math.max(0, tokens - 1) * intervalMs;
const body = JSON.stringify({
  model: 'bench',
  messages: [{ role: 'user', content: 'Tell me a story.' }],
  max_tokens: tokens,
  stream: true,
});

const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)} MB`);
const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : value < 10 ? `${value.toFixed(1)} ms` : `${value.toFixed(0)} ms`);

interface Running extends Started {
  /** Not the target's own process (the mock itself, measured directly): left running. */
  shared?: boolean;
}

interface Upstream {
  process: ChildProcess;
  port: number;
}

interface Target {
  name: string;
  start(upstream: Upstream, dir: string): Promise<Running>;
}

const targets: Record<string, Target> = {
  // The floor of the client and the mock: what every proxy adds to.
  direct: {
    name: 'mock upstream direct (no proxy)',
    start: async (upstream) => ({ process: upstream.process, port: upstream.port, shared: true }),
  },
  translated: {
    name: 'dialect-proxy, chat -> completions backend',
    start: (upstream, dir) => startCli('translated', { kind: 'fireworks', speaks: ['completions'] }, upstream.port, dir),
  },
  same: {
    name: 'dialect-proxy, chat -> chat backend',
    start: (upstream, dir) => startCli('same', { kind: 'openai', speaks: ['chat'] }, upstream.port, dir),
  },
  hpm: { name: 'Express + http-proxy-middleware, chat relayed', start: (upstream) => startHpm(upstream.port) },
};

/** Busy and total jiffies of the whole machine, from /proc/stat. */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: total - fields[3] - (fields[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

interface Row {
  target: Target;
  result: LoadResult;
  idleRss?: number;
  peakRss?: number;
  /** The kernel's high-water mark of the target's resident memory (not for the shared mock). */
  hwm?: number;
  /** Resident memory over the last fifth of the load against the second fifth (median of each): growth shows here. */
  rssGrowth?: number;
  /** CPU percent (of one core) over the load: the target, the mock upstream (unless it is the target), the load generator. */
  targetCpu?: number;
  upstreamCpu?: number;
  clientCpu?: number;
  /** CPU percent of the whole machine used by other processes than the bench's. */
  othersCpu?: number;
  logLines: string[];
}

async function measure(
  target: Target,
  upstream: Upstream,
  dir: string,
  targetCpus: number[] | undefined,
  benchCpus: number[] | undefined,
): Promise<Row> {
  const running = await target.start(upstream, dir);
  const pid = running.process.pid!;
  if (targetCpus) pin(pid, targetCpus); // now that all its threads exist
  try {
    // Cold: the clients come at once; idle is what it holds when ready. Settled: 1-2 s after start, before any request
    // (settling each target as the remote bench does would add 30 s each).
    const idle = start === 'cold' ? { early: residentBytes(pid)?.rss ?? NaN } : (await idleRss([pid], 0))[0];
    let peakRss: number | undefined;
    const samples: { atS: number; rss: number }[] = [];
    const samplingFrom = performance.now();
    const sampler = setInterval(() => {
      const sample = residentBytes(pid);
      if (!sample) return;
      peakRss = Math.max(peakRss ?? 0, sample.rss);
      samples.push({ atS: (performance.now() - samplingFrom) / 1000, rss: sample.rss });
    }, 250);
    const settings: LoadSettings = {
      port: running.port,
      path: '/v1/chat/completions',
      body,
      concurrency,
      seconds,
      tokens,
      rampMs: streamMs,
      drainMs: Math.max(10_000, 5 * streamMs),
    };
    const client = fork(fileURLToPath(new URL('./load-client.js', import.meta.url)), [JSON.stringify(settings)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // CPU seconds of the bench's processes (the mock once, when it is the target) and of the whole machine, before and after.
    const pids = { target: pid, upstream: running.shared ? undefined : upstream.process.pid, client: client.pid };
    const cpuNow = () => ({
      target: pids.target && cpuSeconds(pids.target),
      upstream: pids.upstream && cpuSeconds(pids.upstream),
      client: pids.client && cpuSeconds(pids.client),
    });
    const [before, machineBefore, started] = [cpuNow(), machineTicks(), performance.now()];
    const [result] = (await Promise.race([
      once(client, 'message'),
      once(client, 'exit').then(([code]) => {
        throw new Error(`the load generator exited with ${String(code)} before reporting`);
      }),
    ])) as [LoadResult];
    const [after, machineAfter, elapsedS] = [cpuNow(), machineTicks(), (performance.now() - started) / 1000];
    clearInterval(sampler);
    await once(client, 'exit');
    const lastSample = residentBytes(pid);
    if (lastSample) peakRss = Math.max(peakRss ?? 0, lastSample.rss);
    const hwm = running.shared ? undefined : lastSample?.peak;
    const percent = (role: keyof typeof pids) => {
      const [from, to] = [before[role], after[role]];
      return from === undefined || to === undefined ? undefined : ((to - from) / elapsedS) * 100;
    };
    let othersCpu: number | undefined;
    if (machineBefore && machineAfter) {
      const cores = allowedCpus()?.length ?? 1;
      const machineBusy = ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100 * cores;
      othersCpu = Math.max(0, machineBusy - (percent('target') ?? 0) - (percent('upstream') ?? 0) - (percent('client') ?? 0));
    }
    const logLines = running.log
      ? readFileSync(running.log, 'utf8')
          .split('\n')
          .filter((line) => line.trim() && !/listening on|backends ready/.test(line))
      : [];
    // The first fifth is the warm-up (every connection opening at once): compare the second with the last.
    const fifth = (k: number) =>
      samples.filter(({ atS }) => atS >= (k * seconds) / 5 && atS < ((k + 1) * seconds) / 5).map(({ rss }) => rss);
    const [early, late] = [fifth(1), fifth(4)];
    const rssGrowth = early.length && late.length ? percentile(late, 50) / percentile(early, 50) - 1 : undefined;
    return {
      target,
      result,
      logLines,
      othersCpu,
      peakRss,
      hwm,
      rssGrowth,
      idleRss: Number.isNaN(idle.early) ? undefined : idle.early,
      targetCpu: percent('target'),
      upstreamCpu: running.shared ? undefined : percent('upstream'),
      clientCpu: percent('client'),
    };
  } finally {
    if (running.shared) {
      if (benchCpus) pin(pid, benchCpus);
    } else {
      await stop(running.process);
    }
  }
}

async function main(): Promise<void> {
  if (start !== 'cold' && start !== 'settled') throw new Error(`LOAD_START: ${start} (known: cold, settled)`);
  const unknown = targetNames.filter((name) => !targets[name]);
  if (unknown.length) throw new Error(`LOAD_TARGETS: unknown ${unknown.join(', ')} (known: ${Object.keys(targets).join(', ')})`);

  // Placement: the target alone on the first CPU; this process, and so the mock and the load generator it forks, on the others.
  const cpus = allowedCpus();
  let targetCpus: number[] | undefined;
  let placement = 'not pinned (needs Linux, taskset and 2 CPUs or more): the OS places every process';
  if (cpus && cpus.length >= 2 && pin(process.pid, cpus.slice(1))) {
    targetCpus = [cpus[0]];
    placement = `target alone on CPU ${cpus[0]}; mock upstream, load generator and this orchestrator on CPU ${cpus.slice(1).join(',')} (taskset)`;
  }
  const benchCpus = cpus && targetCpus ? cpus.slice(1) : undefined;

  const dir = mkdtempSync(join(tmpdir(), 'dialect-proxy-load-'));
  const upstream: Upstream = await startMock([String(tokens), String(intervalMs)]);
  console.log(
    `load: ${concurrency} concurrent streaming chat clients for ${seconds} s per target; the mock upstream sends ${tokens} tokens ${intervalMs} ms apart; clients start spread over ${streamMs} ms (one stream's length), ${start === 'cold' ? 'as soon as the target is ready (cold start)' : '2 s after the target is ready (settled)'}`,
  );
  console.log(`placement: ${placement}`);
  console.log(
    `machine load average before the run: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}\n`,
  );

  const rows: Row[] = [];
  try {
    for (const name of targetNames) {
      const row = await measure(targets[name], upstream, dir, targetCpus, benchCpus);
      rows.push(row);
    }
  } finally {
    upstream.process.kill();
    rmSync(dir, { recursive: true, force: true });
  }

  const cpu = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(0)}%`);
  console.log(
    `| target | streams served | errors | TTFT p50 | TTFT p99 | p99, first ${FIRST_S} s | p99, after | idle RSS | peak RSS | RSS growth | target CPU | CPU / stream |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const growth = (value: number | undefined) => (value === undefined ? 'n/a' : `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`);
  for (const row of rows) {
    const { target, result, idleRss, peakRss, rssGrowth, targetCpu } = row;
    const errors = Object.values(result.errors).reduce((sum, count) => sum + count, 0);
    const figures = figuresOf(row);
    const perStream = Number.isNaN(figures.cpuPerStreamMs) ? 'n/a' : `${figures.cpuPerStreamMs.toFixed(2)} ms`;
    console.log(
      `| ${target.name} | ${result.served} (${(result.served / result.elapsedS).toFixed(0)}/s) | ${errors} | ${ms(figures.p50)} | ${ms(figures.p99)} | ${ms(figures.firstP99)} | ${ms(figures.afterP99)} | ${mb(idleRss)} | ${mb(peakRss)} | ${growth(rssGrowth)} | ${cpu(targetCpu)} | ${perStream} |`,
    );
  }
  console.log(
    `\nTTFT: from sending the request to the first byte of its first data frame; "first ${FIRST_S} s" and "after": the streams sent in the run's first ${FIRST_S} s (${start === 'cold' ? 'the cold start: new code, every connection opening' : 'every connection opening'}) and the rest. RSS: the target's (for "direct", the mock's); idle: ${start === 'cold' ? 'when it was ready' : '1-2 s after it was ready'}; growth: the median over the load's last fifth against its second (the first is the warm-up). CPU: percent of one core over the load; per stream: the target's CPU time over the load divided by the streams served.`,
  );
  printColdStart(rows);
  printGoals(rows);

  let clientLimited = false;
  let failed = false;
  let noisy = false;
  for (const { target, result, upstreamCpu, clientCpu, othersCpu, logLines, hwm } of rows) {
    const { client } = result;
    const benchCpu = (upstreamCpu ?? 0) + (clientCpu ?? client.cpuPercent);
    console.log(`\n${target.name}:`);
    const highWater = hwm === undefined ? '' : `; its resident memory's high-water mark (VmHWM) ${mb(hwm)}`;
    console.log(
      `  ${result.started} streams started in ${result.elapsedS.toFixed(1)} s; TTFT max ${ms(percentile(result.ttftMs, 100))}; ${client.connectionsOpened} connections opened by the client${highWater}`,
    );
    console.log(
      `  CPU: mock upstream ${upstreamCpu === undefined ? 'is the target' : cpu(upstreamCpu)}, load generator ${cpu(clientCpu ?? client.cpuPercent)} (event-loop delay p99 ${ms(client.loopDelayP99Ms)}, max ${ms(client.loopDelayMaxMs)}), other processes on the machine ${cpu(othersCpu)}`,
    );
    for (const [kind, count] of Object.entries(result.errors)) {
      failed = true;
      console.log(`  errors: ${count} x ${kind}`);
    }
    for (const sample of result.samples) console.log(`    e.g. ${sample.replace(/\s+/g, ' ').slice(0, 300)}`);
    if (logLines.length) {
      console.log(`  the target wrote ${logLines.length} lines (warnings and errors), e.g.:`);
      for (const line of logLines.slice(0, 3)) console.log(`    ${line.slice(0, 300)}`);
    }
    const limits = [...client.limitsHit];
    if (benchCpus && benchCpu > 90 * benchCpus.length)
      limits.push(
        `the mock and load generator used ${benchCpu.toFixed(0)}% of their ${benchCpus.length} core(s): client-side delay is in these figures`,
      );
    if (client.loopDelayP99Ms > 50)
      limits.push(`the load generator's event loop lagged ${ms(client.loopDelayP99Ms)} at p99: its timings run late`);
    if (limits.length) clientLimited = true;
    console.log(
      `  client-side limits: ${limits.length ? limits.join('; ') : `none hit (maxSockets ${concurrency}, no stream queued for a socket, open files limit ${client.openFilesLimit ?? 'unknown'}, load generator not saturated)`}`,
    );
    if (othersCpu !== undefined && othersCpu > 25) {
      noisy = true;
      console.log(`  the machine was busy with other work (${cpu(othersCpu)} of a core): these figures are noisy`);
    }
  }
  if (clientLimited) console.log('\nA client-side limit was hit: the figures above measure the load generator too, not only the targets.');
  if (noisy) console.log('\nOther processes used the machine during the run: compare targets with care, or run again when it is quiet.');
  if (failed) {
    console.log('\nErrors: there must be none.');
    process.exitCode = 1;
  }
}

/** The first seconds, a quarter second at a time: when the clients of a cold start meet a backlog, and how long it lasts. */
function printColdStart(rows: Row[]): void {
  const slots = Array.from({ length: FIRST_S * 4 }, (_, slot) => slot / 4);
  console.log(`\nTTFT p50 / max of the streams sent in each quarter second of the first ${FIRST_S} s (streams sent):\n`);
  console.log(`| target | ${slots.map((from) => `${from.toFixed(2)} s`).join(' | ')} |`);
  console.log(`|---|${slots.map(() => '---|').join('')}`);
  for (const { target, result } of rows) {
    const cells = slots.map((from) => {
      const sent = result.ttftMs.filter((_, index) => result.ttftSentS[index] >= from && result.ttftSentS[index] < from + 0.25);
      return sent.length === 0 ? '-' : `${ms(percentile(sent, 50))} / ${ms(percentile(sent, 100))} (${sent.length})`;
    });
    console.log(`| ${target.name} | ${cells.join(' | ')} |`);
  }
}

/** A row's figures, as the table prints them and the goals compare them; NaN where there is none. */
function figuresOf({ result, targetCpu, peakRss }: Row) {
  const sentIn = (first: boolean) => result.ttftMs.filter((_, index) => result.ttftSentS[index] < FIRST_S === first);
  return {
    p50: percentile(result.ttftMs, 50),
    p99: percentile(result.ttftMs, 99),
    firstP99: percentile(sentIn(true), 99),
    afterP99: percentile(sentIn(false), 99),
    // A model's stream comes a token per packet: this is what a stream costs when each event is its own read and write.
    cpuPerStreamMs: targetCpu === undefined || result.served === 0 ? NaN : ((targetCpu / 100) * result.elapsedS * 1000) / result.served,
    peakRss: peakRss ?? NaN,
  };
}

/**
 * Issue 40's cold-start goals against hpm in the same run: time to first token p50 and p99 within 1.2x, peak RSS
 * within 1.1x. CPU per stream has no goal of its own here: reading a paced stream's events alone costs 1.09-1.17x
 * hpm's (docs/performance.md, "What reading a stream's events costs").
 */
const GOALS = { p50: 1.2, p99: 1.2, peakRss: 1.1 };

/** Each dialect-proxy row as a ratio to hpm's in this run, beside the goals. */
function printGoals(rows: Row[]): void {
  const hpm = rows.find(({ target }) => target === targets.hpm);
  if (!hpm) return;
  const base = figuresOf(hpm);
  const ratio = (value: number, of: number, goal = Infinity) => `${(value / of).toFixed(2)}x${value / of <= goal ? '' : ' (over)'}`;
  console.log(
    `\nAgainst hpm in this run (goals, issue 40: TTFT p50 <= ${GOALS.p50}x, p99 <= ${GOALS.p99}x, peak RSS <= ${GOALS.peakRss}x; "over" marks a miss):`,
  );
  for (const row of rows.filter(({ target }) => target === targets.same || target === targets.translated)) {
    const mine = figuresOf(row);
    console.log(
      `  ${row.target.name}: CPU per stream ${ratio(mine.cpuPerStreamMs, base.cpuPerStreamMs)}, TTFT p50 ${ratio(mine.p50, base.p50, GOALS.p50)}, p99 ${ratio(mine.p99, base.p99, GOALS.p99)} (first ${FIRST_S} s: ${ratio(mine.firstP99, base.firstP99, GOALS.p99)}), peak RSS ${ratio(mine.peakRss, base.peakRss, GOALS.peakRss)}`,
    );
  }
}

await main();
