/**
 * `npm run bench -- --peers`: the peers users choose instead, paired with
 * dialect-proxy (paired.ts's method: both loaded at the same moment, on one
 * core) on the scenarios each serves, in front of the same mock upstream:
 * Portkey's gateway 1.15.2 (chat to a chat upstream, and chat to an
 * Anthropic one) and claude-code-router 3.1.1 (Anthropic Messages to a chat
 * upstream). Each row is the peer's CPU per request over dialect-proxy's
 * (issue 40's goal: at least 3x for Portkey, 5x for claude-code-router).
 * The peers are installed on demand into the cache (peer-install.ts); one
 * that cannot install or start is reported as not measured, with why, and
 * the others still run.
 */
import { median } from './children.js';
import type { Scenario } from './measure.js';
import { pair, pairedCells, type PairedOptions, type PairedRow, type Side } from './paired.js';
import { claudeCodeRouter, installPeer, portkeyGateway, type InstalledPeer, type PeerSpec } from './peer-install.js';
import { claudeCodeRouterKey, portkeyHeaders, startClaudeCodeRouter, startPortkey } from './peer-targets.js';
import { messagesScenarios, scenarios, withTargets, type Processes } from './remote.js';
import { startCli, stop, type Running } from './targets.js';

/** A peer, the least of its CPU per request over dialect-proxy's that the issue asks, and how it is started. */
interface PeerEntry {
  name: string;
  goal: number;
  spec: PeerSpec;
  start(peer: InstalledPeer, upstreamPort: number, dir: string): Promise<Running>;
}

const PORTKEY: PeerEntry = {
  name: "Portkey's gateway 1.15.2",
  goal: 3,
  spec: portkeyGateway,
  start: (peer, _, dir) => startPortkey(peer, dir),
};
const CCR: PeerEntry = {
  name: 'claude-code-router 3.1.1',
  goal: 5,
  spec: claudeCodeRouter,
  start: (peer, upstreamPort, dir) => startClaudeCodeRouter(peer, upstreamPort, dir),
};
/**
 * The same, with its raw traces off: by default it writes each request's bodies and headers to disk (seven files
 * in app-data/raw-trace-spool/) and syncs them to its management process; its code reads CCR_RAW_TRACE_ENABLED=0
 * as off. dialect-proxy runs with its line per request off (logLevel warn): this row is the like for like.
 */
const CCR_UNTRACED: PeerEntry = {
  ...CCR,
  name: 'claude-code-router 3.1.1, raw traces off',
  start: (peer, upstreamPort, dir) =>
    startClaudeCodeRouter(peer, upstreamPort, dir, { name: 'claude-code-router-untraced', env: { CCR_RAW_TRACE_ENABLED: '0' } }),
};

export interface PeersReport {
  placement: string;
  rows: (PairedRow & { goal: number })[];
  /** Scenarios not measured, and why (a peer that would not install or start). */
  notMeasured: { scenario: string; name: string; reason: string }[];
  /** What installing the peers did that a reader should know. */
  notes: string[];
  errors: string[];
}

/** One scenario of the run: the peer's side and dialect-proxy's, each a scenario and the dialect-proxy process that takes it. */
interface PeerCase {
  peer: PeerEntry;
  scenario: Scenario;
  peerScenario: Scenario;
  proxy: 'toChat' | 'toAnthropic';
}

function cases(tokens: number, upstreamPort: number): PeerCase[] {
  const upstream = `http://127.0.0.1:${upstreamPort}`;
  const chat = scenarios(tokens).filter((scenario) => scenario.dialect === 'chat');
  return [
    ...chat.map((scenario) => ({
      peer: PORTKEY,
      scenario,
      peerScenario: { ...scenario, headers: portkeyHeaders('openai', `${upstream}/v1`) },
      proxy: 'toChat' as const,
    })),
    ...chat.map((chatScenario) => {
      const scenario = { ...chatScenario, name: chatScenario.name.replace('chat', 'chat -> Anthropic') };
      // The mock answers in Anthropic's shape under /anthropic/ (upstream.ts).
      return {
        peer: PORTKEY,
        scenario,
        peerScenario: { ...scenario, headers: portkeyHeaders('anthropic', `${upstream}/anthropic/v1`) },
        proxy: 'toAnthropic' as const,
      };
    }),
    ...[CCR, CCR_UNTRACED].flatMap((peer) =>
      messagesScenarios(tokens).map(({ messages }) => {
        const scenario = { ...messages, name: messages.name.replace('Messages', 'Messages -> chat') };
        return { peer, scenario, peerScenario: { ...scenario, headers: { 'x-api-key': claudeCodeRouterKey } }, proxy: 'toChat' as const };
      }),
    ),
  ];
}

/** Installs a peer, or says why not. */
async function installed(spec: PeerSpec): Promise<{ peer?: InstalledPeer; reason?: string }> {
  try {
    return { peer: await installPeer(spec) };
  } catch (error) {
    return { reason: `could not install: ${(error as Error).message.slice(0, 400)}` };
  }
}

/** The peer started and pinned, or why it is not. */
async function startPeer(
  entry: PeerEntry,
  { peer, reason }: Awaited<ReturnType<typeof installed>>,
  upstreamPort: number,
  processes: Processes,
  dir: string,
): Promise<Running | string> {
  if (!peer) return reason!;
  try {
    const [running] = await processes.proxies([entry.start(peer, upstreamPort, dir)]);
    return running;
  } catch (error) {
    return `could not start: ${(error as Error).message.slice(0, 400)}`;
  }
}

export async function benchPeers(options: PairedOptions): Promise<PeersReport> {
  const peers = [PORTKEY, CCR_UNTRACED, CCR];
  const installs = new Map<PeerSpec, Awaited<ReturnType<typeof installed>>>();
  for (const { spec } of peers) if (!installs.has(spec)) installs.set(spec, await installed(spec));
  const notes = [...installs].flatMap(([spec, { peer }]) => (peer?.notes ?? []).map((note) => `${spec.spec}: ${note}`));

  return withTargets('peers', async ({ targetCpus, placement: alone, dir, processes }) => {
    const placement = targetCpus
      ? `both targets of a pair (a peer with its child processes) on CPU ${targetCpus.join(',')}; the mock upstream and the two load generators on the other CPUs (taskset)`
      : alone;
    const report: PeersReport = { placement, rows: [], notMeasured: [], notes, errors: [] };
    const mock = await processes.mock([String(options.tokens)]);
    const [toChat, toAnthropic] = await processes.proxies([
      startCli('chat-backend', { kind: 'openai', speaks: ['chat'] }, mock.port, dir),
      startCli(
        'anthropic-backend',
        { kind: 'anthropic', url: `http://127.0.0.1:${mock.port}/anthropic/v1`, apiKey: 'bench' },
        mock.port,
        dir,
      ),
    ]);
    const proxies = { toChat, toAnthropic };
    const all = cases(options.tokens, mock.port);
    // One peer running at a time, stopped once its scenarios are measured: what one does in the background
    // (claude-code-router syncs its traces for seconds after a load) takes no time from another's rounds.
    for (const entry of peers) {
      const its = all.filter(({ peer }) => peer === entry);
      const running = await startPeer(entry, installs.get(entry.spec)!, mock.port, processes, dir);
      if (typeof running === 'string') {
        report.notMeasured.push(...its.map(({ scenario }) => ({ scenario: scenario.name, name: entry.name, reason: running })));
        continue;
      }
      for (const { scenario, peerScenario, proxy } of its) {
        const a: Side = { name: entry.name, running, scenario: peerScenario };
        const b: Side = { name: 'dialect-proxy', running: proxies[proxy], scenario };
        const row = await pair(a, b, options, report.errors);
        if (row) report.rows.push({ ...row, goal: entry.goal });
      }
      await stop(running.process);
    }
    return report;
  });
}

export function printPeers(report: PeersReport, options: PairedOptions): void {
  console.log(
    `\nPeers, paired: a peer and dialect-proxy loaded at the same moment, ${options.connections} connections each, ${options.seconds} s, ${options.rounds} rounds; the peer's CPU per request over dialect-proxy's (above 1: dialect-proxy is cheaper), the median of the rounds and their range; the goal (issue 40): at least 3x for Portkey's gateway, 5x for claude-code-router`,
  );
  console.log(`placement: ${report.placement}\n`);
  console.log('| scenario | peer | against | CPU per request | rounds | us per request (each side) | goal |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of report.rows) {
    const met = Math.min(...row.ratios) >= row.goal ? 'met' : median(row.ratios) >= row.goal ? 'met (median)' : 'not met';
    console.log(`${pairedCells(row)} ${row.goal}x: ${met} |`);
  }
  for (const { scenario, name, reason } of report.notMeasured)
    console.log(`not measured: ${scenario}, ${name}: ${reason.replace(/\s+/g, ' ')}`);
  for (const note of report.notes) console.log(`note: ${note}`);
  for (const error of report.errors) console.log(`error: ${error}`);
}
