/** A Fireworks stream (completions or chat) -> StreamEvents: the OpenAI-compatible reader plus Fireworks' extensions. */
import type { NeutralRequest } from '../../src/model/request.js';
import type { ChunkReader } from '../chunk-reader.js';
import { OpenAIChunkReader } from '../openai/from-wire-chunks.js';
import { fireworksExtras } from './wire-extras.js';

export const fireworksChunkReader = (request: NeutralRequest): ChunkReader => new OpenAIChunkReader(request, fireworksExtras);
