/**
 * `npm run bench`: side by side in one run, so that a noisy shared machine
 * weighs on every target alike. First the remote side (bench/remote.ts): the
 * mock upstream alone, a bare node:http pass-through, Express +
 * http-proxy-middleware and dialect-proxy same-dialect and translated, under
 * load, one request at a time, and the pacing probe. Then dialect-proxy
 * --workers 1 vs 2, then the bundled worker against node-llama-cpp called
 * directly.
 *
 * `npm run bench -- --remote`: the remote side alone; `-- --workers`: the
 * --workers comparison alone; `-- --stages`: a request's fixed cost by part,
 * in process (bench/stages.ts), which the full run prints after the remote
 * side; `-- --paired`: dialect-proxy and hpm loaded at the same moment on one
 * core (bench/paired.ts), ratios that hold on a noisy machine, which the full
 * run prints after the stages; `-- --peers`: Portkey's gateway and
 * claude-code-router paired with dialect-proxy the same way, on the scenarios
 * each serves (bench/peers.ts), installed on demand at pinned versions into
 * the cache (`$DIALECT_PROXY_CACHE/bench-peers`, bench/peer-install.ts),
 * never into this package; not in the full run; `-- --versus DIR`: this build
 * paired with another checkout's build (the code before a change) on the same
 * requests (bench/versus.ts). Settings: BENCH_SECONDS (per load, 2),
 * BENCH_ROUNDS (3), BENCH_CONCURRENCY (connections, 32), BENCH_TOKENS (per
 * stream, 64), BENCH_SEQUENTIAL_SECONDS (0.3), BENCH_PROBE_SECONDS (0.5),
 * BENCH_PROBE_INTERVAL_MS (5); BENCH_ONLY (the paired rows whose scenario
 * name contains one of its comma-separated parts, e.g. `gemini`).
 */
import { benchPaired, printPaired } from './paired.js';
import { benchPeers, printPeers } from './peers.js';
import { benchVersus } from './versus.js';
import { benchRemote, type RemoteOptions } from './remote.js';
import { printRemote } from './report.js';
import { benchStages, printStages } from './stages.js';
import { benchWorker } from './worker.js';
import { benchWorkers, printWorkers } from './workers.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const remoteOptions: RemoteOptions = {
  seconds,
  rounds,
  connections: Number(process.env.BENCH_CONCURRENCY ?? 32),
  tokens: Number(process.env.BENCH_TOKENS ?? 64),
  sequentialSeconds: Number(process.env.BENCH_SEQUENTIAL_SECONDS ?? 0.3),
  probeSeconds: Number(process.env.BENCH_PROBE_SECONDS ?? 0.5),
  probeIntervalMs: Number(process.env.BENCH_PROBE_INTERVAL_MS ?? 5),
};

const workersOnly = process.argv.includes('--workers');
const remoteOnly = process.argv.includes('--remote');
const workersOptions = { seconds, rounds, concurrency: Number(process.env.BENCH_WORKERS_CONCURRENCY ?? 32) };

const stagesOnly = process.argv.includes('--stages');
const pairedOnly = process.argv.includes('--paired');
const peersOnly = process.argv.includes('--peers');
const versusIndex = process.argv.indexOf('--versus');
const versusDir = versusIndex > 0 ? process.argv[versusIndex + 1] : undefined;
// BENCH_ONLY=gemini: only the paired rows whose scenario name contains a comma-separated part.
const only = process.env.BENCH_ONLY?.split(',')
  .map((part) => part.trim())
  .filter((part) => part !== '');
const pairedOptions = {
  seconds,
  rounds,
  connections: remoteOptions.connections,
  tokens: remoteOptions.tokens,
  ...(only?.length ? { only } : {}),
};

async function main(): Promise<void> {
  if (stagesOnly) {
    printStages(await benchStages());
    return;
  }
  if (peersOnly) {
    const peers = await benchPeers(pairedOptions);
    printPeers(peers, pairedOptions);
    if (peers.errors.length || peers.notMeasured.length) process.exitCode = 1;
    return;
  }
  if (versusDir !== undefined) {
    const versus = await benchVersus(versusDir, pairedOptions);
    printPaired(versus, pairedOptions);
    if (versus.errors.length) process.exitCode = 1;
    return;
  }
  if (pairedOnly) {
    const paired = await benchPaired(pairedOptions);
    printPaired(paired, pairedOptions);
    if (paired.errors.length) process.exitCode = 1;
    return;
  }
  if (workersOnly) {
    printWorkers(await benchWorkers(workersOptions), workersOptions);
    return;
  }
  const remote = await benchRemote(remoteOptions);
  printRemote(remote, remoteOptions);
  if (remote.errors.length) process.exitCode = 1;
  if (remoteOnly) return;
  printStages(await benchStages());
  const paired = await benchPaired(pairedOptions);
  printPaired(paired, pairedOptions);
  if (paired.errors.length) process.exitCode = 1;

  printWorkers(await benchWorkers(workersOptions), workersOptions);

  const worker = await benchWorker(Number(process.env.BENCH_WORKER_ROUNDS ?? 15));
  if (!worker) {
    console.log('\nbundled llama.cpp worker: skipped (needs ../shared/models/stories260K.gguf)');
    return;
  }
  console.log(`\nbundled llama.cpp worker (${worker.model}, 1 thread): median tokens/s; ratio: median of back-to-back pairs\n`);
  console.log('| scenario | node-llama-cpp direct | dialect-proxy | proxy / direct | first token, direct | first token, proxy |');
  console.log('|---|---|---|---|---|---|');
  for (const row of worker.rows) {
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `| ${row.name} | ${row.direct.toFixed(0)} | ${row.proxy.toFixed(0)} | ${row.ratio.toFixed(2)} | ${ms(row.directFirstTokenMs)} | ${ms(row.proxyFirstTokenMs)} |`,
    );
  }
}

await main();
