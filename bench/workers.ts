/**
 * The `--workers` comparison of `npm run bench` (alone: `npm run bench -- --workers`):
 * dialect-proxy as users run it (the CLI) with 1 and with 2 processes, side by
 * side, in front of the bench upstream, loaded by a generator in its own
 * process. Rounds alternate between the two, the median of each is reported.
 * Every process shares the machine's cores (2 here): the table gives the CPU
 * each part used, the load generator's included, so that a ratio below 2 can be
 * read for what it is.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSeconds, loadFromChild, machineSeconds, median } from './children.js';
import { startCli, startMock, stop } from './targets.js';
import type { ClientResult, ClientSettings } from './workers-client.js';

export interface WorkersRow {
  scenario: string;
  /** Median requests per second, per process count. */
  rps: Record<number, number>;
  /** Median CPU, in percent of one core, per process count. */
  proxyCpu: Record<number, number>;
  upstreamCpu: Record<number, number>;
  clientCpu: Record<number, number>;
  /** Interrupts (loopback networking's soft interrupts, mostly), which no process is charged with. */
  interruptsCpu: Record<number, number>;
  /** The rest of the machine's busy CPU meanwhile: other processes (a shared machine: noise). */
  othersCpu: Record<number, number>;
  errors: number;
}

interface Proxy {
  process: ChildProcess;
  port: number;
  workers: number;
}

/** dialect-proxy's CLI with `--workers`, chat to a chat backend at the upstream, once every worker is up. */
async function startProxy(workers: number, upstreamPort: number, dir: string): Promise<Proxy> {
  const { process: child, port } = await startCli(`workers-${workers}`, { kind: 'openai', speaks: ['chat'] }, upstreamPort, dir, [
    '--workers',
    String(workers),
  ]);
  await sleep(workers > 1 ? 1000 : 200); // /healthz answered from one of them: let the others come up
  return { process: child, port, workers };
}

/** `pid` and its children (the workers). */
function processTree(pid: number): number[] {
  try {
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map(Number)
      .filter((value) => value > 0);
    return [pid, ...children];
  } catch {
    return [pid];
  }
}

const treeCpu = (pids: number[]) => pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);

async function load(
  settings: ClientSettings,
  proxy: Proxy,
  upstreamPid: number,
): Promise<{ result: ClientResult; proxyCpu: number; upstreamCpu: number; othersCpu: number; interruptsCpu: number }> {
  const pids = processTree(proxy.process.pid as number);
  const [proxyBefore, upstreamBefore, machineBefore, started] = [
    treeCpu(pids),
    cpuSeconds(upstreamPid) ?? 0,
    machineSeconds(),
    performance.now(),
  ];
  const result = await loadFromChild(settings);
  const elapsedS = (performance.now() - started) / 1000;
  const [proxyAfter, upstreamAfter, machineAfter] = [treeCpu(pids), cpuSeconds(upstreamPid) ?? 0, machineSeconds()];
  const proxyCpu = ((proxyAfter - proxyBefore) / elapsedS) * 100;
  const upstreamCpu = ((upstreamAfter - upstreamBefore) / elapsedS) * 100;
  const machineCpu = ((machineAfter.busy - machineBefore.busy) / elapsedS) * 100;
  const interruptsCpu = ((machineAfter.interrupts - machineBefore.interrupts) / elapsedS) * 100;
  return {
    result,
    proxyCpu,
    upstreamCpu,
    interruptsCpu,
    othersCpu: Math.max(0, machineCpu - interruptsCpu - proxyCpu - upstreamCpu - result.cpuPercent),
  };
}

const scenarios = [
  {
    name: 'chat, JSON',
    body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'Tell me a story.' }], max_tokens: 32 }),
  },
  {
    name: 'chat, stream (32 chunks)',
    body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'Tell me a story.' }], max_tokens: 32, stream: true }),
  },
];

/** Runs the comparison; `counts` are the process counts compared (1 and 2). */
export async function benchWorkers(options: {
  seconds: number;
  rounds: number;
  concurrency: number;
  counts?: number[];
}): Promise<WorkersRow[]> {
  const counts = options.counts ?? [1, 2];
  const dir = mkdtempSync(join(tmpdir(), 'dialect-proxy-bench-workers-'));
  const upstream = await startMock();
  const proxies: Proxy[] = [];
  try {
    for (const workers of counts) proxies.push(await startProxy(workers, upstream.port, dir));
    const rows: WorkersRow[] = [];
    for (const scenario of scenarios) {
      const samples = new Map(
        counts.map((count) => [
          count,
          {
            rps: [] as number[],
            proxyCpu: [] as number[],
            upstreamCpu: [] as number[],
            clientCpu: [] as number[],
            othersCpu: [] as number[],
            interruptsCpu: [] as number[],
          },
        ]),
      );
      let errors = 0;
      const settings = (proxy: Proxy, seconds: number): ClientSettings => ({
        port: proxy.port,
        path: '/v1/chat/completions',
        body: scenario.body,
        concurrency: options.concurrency,
        seconds,
      });
      for (const proxy of proxies) await load(settings(proxy, 0.5), proxy, upstream.process.pid as number); // warm-up
      for (let round = 0; round < options.rounds; round++) {
        for (const proxy of round % 2 === 0 ? proxies : [...proxies].reverse()) {
          const { result, proxyCpu, upstreamCpu, othersCpu, interruptsCpu } = await load(
            settings(proxy, options.seconds),
            proxy,
            upstream.process.pid as number,
          );
          const sample = samples.get(proxy.workers)!;
          sample.rps.push(result.requestsPerSecond);
          sample.proxyCpu.push(proxyCpu);
          sample.upstreamCpu.push(upstreamCpu);
          sample.clientCpu.push(result.cpuPercent);
          sample.othersCpu.push(othersCpu);
          sample.interruptsCpu.push(interruptsCpu);
          errors += result.errors;
        }
      }
      const pick = (key: 'rps' | 'proxyCpu' | 'upstreamCpu' | 'clientCpu' | 'othersCpu' | 'interruptsCpu') =>
        Object.fromEntries(counts.map((count) => [count, median(samples.get(count)![key])]));
      rows.push({
        scenario: scenario.name,
        rps: pick('rps'),
        proxyCpu: pick('proxyCpu'),
        upstreamCpu: pick('upstreamCpu'),
        clientCpu: pick('clientCpu'),
        othersCpu: pick('othersCpu'),
        interruptsCpu: pick('interruptsCpu'),
        errors,
      });
    }
    return rows;
  } finally {
    for (const proxy of proxies) await stop(proxy.process);
    upstream.process.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints the comparison as a table. */
export function printWorkers(rows: WorkersRow[], options: { seconds: number; rounds: number; concurrency: number }): void {
  const pct = (value: number) => `${value.toFixed(0)}%`;
  console.log(
    `\ndialect-proxy --workers 1 vs 2 (the CLI, chat to an OpenAI-wire upstream): ${options.seconds}s x ${options.rounds} rounds each, ${options.concurrency} keep-alive connections; ${availableParallelism()} cores shared by every process below; median requests/s; CPU in % of one core\n`,
  );
  console.log(
    '| scenario | 1 process | 2 processes | 2 / 1 | proxy CPU (1 / 2) | upstream CPU (1 / 2) | load generator CPU (1 / 2) | interrupts (1 / 2) | other processes (1 / 2) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.scenario} | ${row.rps[1].toFixed(0)} | ${row.rps[2].toFixed(0)} | ${(row.rps[2] / row.rps[1]).toFixed(2)} | ${pct(row.proxyCpu[1])} / ${pct(row.proxyCpu[2])} | ${pct(row.upstreamCpu[1])} / ${pct(row.upstreamCpu[2])} | ${pct(row.clientCpu[1])} / ${pct(row.clientCpu[2])} | ${pct(row.interruptsCpu[1])} / ${pct(row.interruptsCpu[2])} | ${pct(row.othersCpu[1])} / ${pct(row.othersCpu[2])} |`,
    );
    if (row.errors > 0) console.log(`  ${row.errors} requests failed`);
  }
  console.log(
    "\nproxy CPU: the primary and its workers together. Every part shares the cores: together they use at most 100% per core. From /proc/stat, the rest of the machine's busy CPU: interrupts (loopback networking, which no process is charged with) and other processes (on a shared machine, noise: compare the two counts only when it is low).",
  );
}
