/**
 * A remote kind whose wire is OpenAI's, read by the OpenAI-compatible readers
 * (from-wire-result.ts, from-wire-chunks.ts): `openai`, `fireworks`, `vllm`.
 * What differs between them is data: the field table, the defaults of `speaks`
 * and `maxTopLogprobs`, the efforts, the wire builder and the response
 * extensions the readers take. (llama-server, which also reads `/props` and
 * refines errors, builds its own adapter.)
 */
import type { TokenCountEndpoint } from '../token-count-endpoint.js';
import type { Adapter, BackendCapabilities, SpokenEndpoint } from '../../src/backend/adapter.js';
import { defineKind, type BackendKind } from '../../src/backend/backend-kind.js';
import type { BackendTable } from '../../src/backend/field-support.js';
import type { NeutralRequest } from '../../src/model/request.js';
import { createRemoteAdapter, type WireCodec } from '../remote-adapter.js';
import {
  checkRemoteSettings,
  NOWHERE,
  pointedAt,
  REMOTE_KEYS,
  type AdapterSettings,
  type RemoteBackendSettings,
} from '../remote-settings.js';
import { cannedAnswer } from './canned-answer.js';
import { OpenAIChunkReader } from './from-wire-chunks.js';
import { fromWireResult } from './from-wire-result.js';
import type { WireExtras } from './wire-extras.js';

export interface OpenAICompatibleSpec<Name extends string = string> {
  /** The `kind:` name, and an adapter's name when none is given. */
  name: Name;
  /** The kind's field table (its fields.ts). */
  table: BackendTable;
  /** The endpoints it serves when the config has no `speaks`. */
  speaks: readonly SpokenEndpoint[];
  /** The most top logprobs per token when the config has no `maxTopLogprobs`: the server's own cap. */
  maxTopLogprobs: number;
  /** The reasoning efforts it accepts as a string. */
  efforts: readonly string[];
  /** NeutralRequest -> its wire body (its to-wire-body.ts). */
  toWireBody(request: NeutralRequest, options: { stream: boolean }): Record<string, unknown>;
  /** Its response extensions, read beside the OpenAI fields of a body or a chunk. */
  extras: WireExtras;
  /** Where it counts a prompt's tokens, if it can (token-count-endpoint.ts). */
  tokenCount?: TokenCountEndpoint;
}

export interface OpenAICompatibleKind<Name extends string = string> {
  /** For the registry. */
  kind: BackendKind<RemoteBackendSettings, Name>;
  /** The capabilities of a backend with these settings. */
  capabilities(settings: Partial<RemoteBackendSettings>): BackendCapabilities;
  /** An adapter (named `options.name`, else the kind's name). */
  createAdapter(settings: AdapterSettings<RemoteBackendSettings>, options?: { name?: string }): Adapter;
  /** The wire codec every adapter of the kind uses. */
  codec: WireCodec;
}

/**
 * @example
 * const vllm = defineOpenAICompatibleKind({ name: 'vllm', table: VLLM_TABLE, speaks: ['completions', 'chat'], maxTopLogprobs: 20, efforts: VLLM_EFFORTS, toWireBody, extras: vllmExtras });
 * vllm.createAdapter({ kind: 'vllm', url: 'http://gpu-1:8000/v1' }, { name: 'gpu' });
 */
export function defineOpenAICompatibleKind<const Name extends string>(spec: OpenAICompatibleSpec<Name>): OpenAICompatibleKind<Name> {
  const capabilities = (settings: Partial<RemoteBackendSettings>): BackendCapabilities => ({
    ...spec.table,
    speaks: settings.speaks ?? [...spec.speaks],
    maxTopLogprobs: settings.maxTopLogprobs ?? spec.maxTopLogprobs,
    efforts: new Set(spec.efforts),
  });
  const codec: WireCodec = {
    toWireBody: (request, { stream }) => spec.toWireBody(request, { stream }),
    fromWireResult: (body, request) => fromWireResult(body, request, spec.extras),
    chunkReader: (request) => new OpenAIChunkReader(request, spec.extras),
  };
  const createAdapter = (settings: AdapterSettings<RemoteBackendSettings>, options: { name?: string } = {}): Adapter =>
    createRemoteAdapter({
      name: options.name ?? spec.name,
      settings,
      capabilities: capabilities(settings),
      codec,
      ...(spec.tokenCount && { tokenCount: spec.tokenCount }),
    });
  const kind = defineKind({
    name: spec.name,
    remote: true,
    keys: REMOTE_KEYS,
    check: checkRemoteSettings,
    defaults: { kind: spec.name, url: NOWHERE },
    warmUp: { pointedAt, cannedAnswer },
    create: (name, settings) => createAdapter(settings, { name }),
  });
  return { kind, capabilities, createAdapter, codec };
}
