/**
 * The requests coding agents send on every turn, from ../shared/captures (what Claude Code, Codex CLI and
 * Gemini CLI sent in a tool loop: 48-55 KB bodies with a dozen large tool schemas), replayed with the answer streamed.
 * Empty where ../shared is absent: the bench says so and measures the rest.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackageRoot } from '../src/config/package-root.js';
import type { Dialect } from '../src/dialects/dialect.js';
import type { Scenario } from './measure.js';

const CAPTURES = path.resolve(findPackageRoot(path.dirname(fileURLToPath(import.meta.url))), '../shared/captures');

/** The first turn of each agent, the dialect it speaks, and how its stream ends in that dialect. */
const AGENTS = [
  {
    name: 'Claude Code turn (Messages, 54 KB)',
    speaks: 'anthropic-messages',
    file: 'claude-code/tool-loop-1-request.json',
    streamEnd: 'data: {"type":"message_stop"}',
  },
  {
    name: 'Codex CLI turn (Responses, 51 KB)',
    speaks: 'openai-responses',
    file: 'codex/tool-loop-1-request.json',
    streamEnd: '}',
    tokenMark: '"type":"response.output_text.delta"',
  },
  { name: 'Gemini CLI turn (Gemini, 48 KB)', speaks: 'gemini', file: 'gemini-cli/tool-loop-1-request.json', streamEnd: '}' },
] as const;

/** A turn as the bench sends it (to a chat backend); `speaks`: the agent's dialect. */
export type AgentScenario = Scenario & { speaks: Dialect['name'] };

export function agentScenarios(): AgentScenario[] {
  return AGENTS.filter(({ file }) => existsSync(path.join(CAPTURES, file))).map(({ file, ...scenario }) => {
    const { path: url, body } = JSON.parse(readFileSync(path.join(CAPTURES, file), 'utf8')) as { path: string; body: unknown };
    return { ...scenario, dialect: 'chat', path: url, stream: true, body: JSON.stringify(body) };
  });
}

export const capturesFound = (): boolean => existsSync(CAPTURES);
