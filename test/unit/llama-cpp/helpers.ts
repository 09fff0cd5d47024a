/** Shared by the llama.cpp engine tests. */
import { resolve } from 'node:path';
import type { LlamaEvent, LlamaGenerateRequest } from '../../../adapters/llama-cpp/types.js';
import type { LlamaWorkerHost } from '../../../adapters/llama-cpp/worker-host.js';
import { describeWithShared } from '../../helpers/shared.js';

// These tests need the models in ../shared/models (next to this repository); they are skipped when it is absent.
export const storiesPath = resolve(process.cwd(), '../shared/models/stories260K.gguf');
export const tinyRandomPath = resolve(process.cwd(), '../shared/models/llama-2-tiny-random.gguf');
export const describeShared = describeWithShared(storiesPath);

/** stories260K's greedy continuation of "Once upon a time" (models README). */
export const greedyStory = ', there was a little girl named Lily. She loved to play outside in the park.';

export const baseRequest: LlamaGenerateRequest = { prompt: 'Once upon a time', stop: [], onContextOverflow: 'truncate' };

export interface Collected {
  events: LlamaEvent[];
  text: string;
  tokenIds: number[];
  end: Extract<LlamaEvent, { type: 'end' }>;
}

export async function collect(events: AsyncIterable<LlamaEvent>): Promise<Collected> {
  const all: LlamaEvent[] = [];
  for await (const event of events) all.push(event);
  const tokens = all.filter((event): event is Extract<LlamaEvent, { type: 'token' }> => event.type === 'token');
  const end = all.find((event) => event.type === 'end') as Collected['end'];
  return { events: all, text: tokens.map((event) => event.text).join(''), tokenIds: tokens.flatMap((event) => event.tokenIds), end };
}

export function run(host: LlamaWorkerHost, patch: Partial<LlamaGenerateRequest>, signal?: AbortSignal): Promise<Collected> {
  return collect(host.generate({ ...baseRequest, ...patch }, signal));
}
