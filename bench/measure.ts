/**
 * The remote bench's load loop and its figures. `connections` keep-alive
 * connections (undici), each sending its next request as soon as the one
 * before has been read whole, for `seconds`. Per request: its latency and, for
 * a stream, its time to first byte. Around the load, from /proc: the target
 * process's CPU time and resident memory, the bench side's CPU (the load
 * generator is this process; the mock), and the rest of the machine's.
 */
import { Pool } from 'undici';
import { cpuSeconds, machineSeconds, median, percentile, residentBytes } from './children.js';

export interface Scenario {
  name: string;
  /** The caller's dialect: which path it calls, and which dialect-proxy backend speaks it too. */
  dialect: 'chat' | 'completions';
  path: string;
  stream: boolean;
  body: string;
  /** What a whole stream's last bytes hold (default `data: [DONE]`; a Messages stream ends with `message_stop`). */
  streamEnd?: string;
  /** What marks one of the mock's tokens in the stream (default its text, ` word`; a Responses stream repeats the text and echoes the tools). */
  tokenMark?: string;
  /** Headers a target needs besides content-type (a peer's routing, its key). */
  headers?: Record<string, string>;
}

export interface Load {
  port: number;
  scenario: Scenario;
  connections: number;
  seconds: number;
  /** The target's process: its CPU time and memory are read. */
  pid: number;
  /** The mock upstream's process, counted with the load generator as the bench side (the same as `pid` when the mock is the target). */
  mockPid: number;
}

/** One load's figures; times in ms, NaN where there is none (time to first byte of a JSON reply). */
export interface Figures {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  /** Time to first byte of a stream: from sending the request to the first byte of its first `data:` frame. */
  ttfbP50: number;
  ttfbP99: number;
  /** The target's CPU time (user + system) per request served, microseconds. */
  cpuUs: number;
  /** The target's highest resident memory sampled during the load, bytes. */
  peakRss: number;
  /** Percent of one core: the load generator and the mock (once, when it is the target). */
  benchCpu: number;
  /** Percent of one core: the machine's busy time apart from the bench's processes and interrupts (noise on a shared machine). */
  othersCpu: number;
}

const headers = { 'content-type': 'application/json' };
const sampleEveryMs = 100;

/** Runs one load; `errorSample` keeps the first failure's words, so a broken target says why. */
export async function runLoad(load: Load): Promise<Figures & { errorSample?: string }> {
  const { scenario, connections, seconds, pid, mockPid } = load;
  const pool = new Pool(`http://127.0.0.1:${load.port}`, { connections, pipelining: 1 });
  const latencies: number[] = [];
  const ttfbs: number[] = [];
  let errors = 0;
  let errorSample: string | undefined;
  const fail = (detail: string) => {
    errors += 1;
    errorSample ??= detail;
  };

  const one = async () => {
    const sent = performance.now();
    const { statusCode, body } = await pool.request({
      method: 'POST',
      path: scenario.path,
      body: scenario.body,
      headers: { ...headers, ...scenario.headers },
    });
    if (!scenario.stream) {
      const text = await body.text();
      if (statusCode !== 200) return fail(`status ${statusCode}: ${text.slice(0, 300)}`);
      latencies.push(performance.now() - sent);
      return;
    }
    let first = NaN;
    // The stream's end, to see its `[DONE]`: the last chunk, or the last few when they are tiny.
    let tail: Buffer = Buffer.alloc(0);
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (Number.isNaN(first) && chunk.includes('data:')) first = performance.now() - sent;
      tail = chunk.length >= 16 ? chunk : Buffer.concat([tail, chunk]);
    }
    if (statusCode !== 200) return fail(`status ${statusCode}: ${tail.toString().slice(0, 300)}`);
    const end = scenario.streamEnd ?? 'data: [DONE]';
    if (!tail.includes(end)) return fail(`a stream ended without ${end}: ...${JSON.stringify(tail.toString().slice(-100))}`);
    latencies.push(performance.now() - sent);
    ttfbs.push(first);
  };

  let peakRss = 0; // 0: unknown (off Linux)
  const sample = () => {
    peakRss = Math.max(peakRss, residentBytes(pid)?.rss ?? 0);
  };
  sample();
  const sampler = setInterval(sample, sampleEveryMs);
  const mockIsTarget = mockPid === pid;
  const before = {
    target: cpuSeconds(pid),
    mock: mockIsTarget ? 0 : cpuSeconds(mockPid),
    client: process.cpuUsage(),
    machine: machineSeconds(),
  };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await one().catch((error: Error) => fail(`${error.name}: ${error.message}`));
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const client = process.cpuUsage(before.client);
  const after = { target: cpuSeconds(pid), mock: mockIsTarget ? 0 : cpuSeconds(mockPid), machine: machineSeconds() };
  clearInterval(sampler);
  sample();
  await pool.close();

  const spent = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? NaN : to - from);
  const targetS = spent(before.target, after.target);
  const benchS = (client.user + client.system) / 1e6 + (mockIsTarget ? targetS : spent(before.mock, after.mock));
  const machineBusyS = after.machine.busy - after.machine.interrupts - (before.machine.busy - before.machine.interrupts);
  const requests = latencies.length;
  return {
    requests,
    errors,
    errorSample,
    rps: requests / elapsedS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ttfbP50: percentile(ttfbs, 50),
    ttfbP99: percentile(ttfbs, 99),
    cpuUs: (targetS / requests) * 1e6,
    peakRss: peakRss || NaN,
    benchCpu: (benchS / elapsedS) * 100,
    othersCpu: Math.max(0, ((machineBusyS - benchS - (mockIsTarget ? 0 : targetS)) / elapsedS) * 100),
  };
}

/** The median of each figure over rounds (errors: their sum; peak memory: the highest). */
export function medianOf(rounds: Figures[]): Figures {
  const known = (key: keyof Figures) => rounds.map((figures) => figures[key]).filter((value) => !Number.isNaN(value));
  const pick = (key: keyof Figures) => median(known(key)) ?? NaN;
  return {
    requests: pick('requests'),
    errors: rounds.reduce((sum, figures) => sum + figures.errors, 0),
    rps: pick('rps'),
    p50: pick('p50'),
    p99: pick('p99'),
    ttfbP50: pick('ttfbP50'),
    ttfbP99: pick('ttfbP99'),
    cpuUs: pick('cpuUs'),
    peakRss: known('peakRss').length ? Math.max(...known('peakRss')) : NaN,
    benchCpu: pick('benchCpu'),
    othersCpu: pick('othersCpu'),
  };
}
