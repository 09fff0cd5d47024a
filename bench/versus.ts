/**
 * `npm run bench -- --versus DIR`: this build of dialect-proxy paired with another (DIR: a checkout of
 * the code before a change, built with `npm ci && npm run build`), each loaded at the same moment on one
 * core as `--paired` loads it against hpm. "No request costs more": a change is measured against the
 * code before it, on the bench's requests and the agents' captured turns, in one run.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { agentScenarios } from './agents.js';
import { pair, type PairedOptions, type PairedReport, type PairedRow, type Side } from './paired.js';
import { messagesScenarios, other, scenarios, withTargets } from './remote.js';
import { startCli, type Running } from './targets.js';

const CHAT = { kind: 'openai', speaks: ['chat'] };
const COMPLETIONS = { kind: 'fireworks', speaks: ['completions'] };

export function benchVersus(baseDir: string, options: PairedOptions): Promise<PairedReport> {
  const baseCli = join(resolve(baseDir), 'dist', 'src', 'cli.js');
  if (!existsSync(baseCli)) throw new Error(`--versus ${baseDir}: no ${baseCli} (build it first: npm ci && npm run build)`);
  return withTargets('versus', async ({ targetCpus, placement: alone, dir, processes }) => {
    const placement = targetCpus ? `both builds of a pair on CPU ${targetCpus.join(',')}; the mock and the loads on the others` : alone;
    const errors: string[] = [];
    const mock = await processes.mock([String(options.tokens)]);
    const [headChat, headCompletions, baseChat, baseCompletions] = await processes.proxies([
      startCli('head-chat', CHAT, mock.port, dir),
      startCli('head-completions', COMPLETIONS, mock.port, dir),
      startCli('base-chat', CHAT, mock.port, dir, [], baseCli),
      startCli('base-completions', COMPLETIONS, mock.port, dir, [], baseCli),
    ]);
    const head = { chat: headChat, completions: headCompletions };
    const base = { chat: baseChat, completions: baseCompletions };
    const rows: PairedRow[] = [];
    const versus = async (label: string, to: 'chat' | 'completions', scenario: Side['scenario']) => {
      const a: Side = { name: `HEAD, ${label}`, running: head[to], scenario };
      const b: Side = { name: 'base', running: base[to] as Running, scenario };
      const row = await pair(a, b, options, errors);
      if (row) rows.push(row);
    };
    for (const scenario of scenarios(options.tokens)) {
      await versus('same dialect', scenario.dialect, scenario);
      await versus('translated', other[scenario.dialect], scenario);
    }
    for (const { messages } of messagesScenarios(options.tokens)) await versus('Messages to chat', 'chat', messages);
    for (const scenario of agentScenarios()) await versus('to chat', 'chat', scenario);
    return { placement, rows, errors };
  });
}
