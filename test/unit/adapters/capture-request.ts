/**
 * The llama-server captures (../shared/captures/llama-server, next to the repo,
 * like the built-in model): reading them, and the neutral request each
 * captured wire request stands for (only the fields the from-wire readers look at).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { describeWithShared } from '../../helpers/shared.js';

export const CAPTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/captures/llama-server');

/** Capture replays run where the shared captures are checked out. */
export const withCaptures = describeWithShared(CAPTURES);

export function capture(file: string): string {
  return readFileSync(path.join(CAPTURES, file), 'utf8');
}

export function captureRequest(name: string): NeutralRequest {
  const wire = JSON.parse(capture(`${name}.request.json`)) as Record<string, unknown>;
  const request = emptyRequest(wire.messages ? 'chat' : 'text', String(wire.model));
  if (wire.messages) request.messages = wire.messages as NeutralRequest['messages'];
  if (wire.prompt !== undefined) request.prompt = wire.prompt as NeutralRequest['prompt'];
  if (typeof wire.n === 'number') request.choices = wire.n;
  if (wire.logprobs === true) request.logprobs = { top: typeof wire.top_logprobs === 'number' ? wire.top_logprobs : 0, shape: 'chat' };
  if (typeof wire.logprobs === 'number') request.logprobs = { top: wire.logprobs, shape: 'legacy' };
  if (wire.echo === true) request.echo = { all: true };
  if (wire.stream === true) request.stream = { includeUsage: true, tokenIds: false };
  return request;
}
