/**
 * Attack: pathological nesting. Tool `parameters` ~6,000 levels deep ended in a
 * 500 `internal_error` (a stack overflow inside the proxy's recursive walkers).
 * A body deeper than limits.jsonDepth is now a 400 naming the field, in every dialect.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createDialectProxy } from '../../src/http/middleware.js';
import { createLogger } from '../../src/logging/logger.js';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

/** `{"type":"object","properties":{"a": ...}}` nested `depth` times, as text (JSON.stringify itself would overflow). */
const deepSchema = (depth: number) => '{"type":"object","properties":{"a":'.repeat(depth) + '{"type":"string"}' + '}}'.repeat(depth);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

const bodies = {
  chat: `{"model":"m","messages":[{"role":"user","content":"hi"}],"tool_choice":"required","tools":[{"type":"function","function":{"name":"f","parameters":${deepSchema(6000)}}}]}`,
  responseFormat: `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":${deepSchema(6000)}}}}`,
  responses: `{"model":"m","input":"hi","tools":[{"type":"function","name":"f","parameters":${deepSchema(6000)}}]}`,
  completions: `{"model":"m","prompt":"hi","response_format":{"type":"json_object","schema":${deepSchema(6000)}}}`,
  metadata: `{"model":"m","messages":[{"role":"user","content":"hi"}],"metadata":{"a":${deepArray(100_000)}}}`,
};

describe('deep nesting is a 400 naming the field, never a 500', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    upstream = await startMockUpstream({ json: {} });
    proxy = await startProxyFor(upstream.url, { kind: 'fireworks', speaks: ['completions'] });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test.each([
    ['chat tools (6,000 deep)', '/v1/chat/completions', bodies.chat, 'tools'],
    ['chat response_format (6,000 deep)', '/v1/chat/completions', bodies.responseFormat, 'response_format'],
    ['completions response_format (6,000 deep)', '/v1/completions', bodies.completions, 'response_format'],
    ['metadata (100,000 deep)', '/v1/chat/completions', bodies.metadata, 'metadata'],
  ])('%s', async (_name, path, body, param) => {
    for (const dryRun of [true, false]) {
      const response = await fetch(proxy.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(dryRun ? { 'x-dialect-dry-run': '1' } : {}) },
        body,
      });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { param: string; code: string; message: string } };
      expect(error).toMatchObject({ param, code: 'limit_exceeded' });
      expect(error.message).toContain('limits.jsonDepth');
    }
    expect(upstream.requests).toHaveLength(0);
  });

  test('a Responses request too', async () => {
    const response = await fetch(`${proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodies.responses,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'tools', code: 'limit_exceeded' } });
  });

  test('behind a host app whose express.json() parsed the body already', async () => {
    const app = express();
    app.use(express.json({ limit: '10mb' }));
    const router = createDialectProxy(
      { backends: { up: { kind: 'fireworks', url: upstream.url, speaks: ['completions'] } }, routes: [{ model: '*', backend: 'up' }] },
      { logger: createLogger({ silent: true }) },
    );
    app.use(router);
    await router.ready;
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bodies.chat,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { param: 'tools', code: 'limit_exceeded' } });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await router.close();
    }
  });

  test('an ordinary tool schema a few levels deep is untouched by the limit', async () => {
    const body = `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${deepSchema(20)}}}]}`;
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dialect-dry-run': '1' },
      body,
    });
    expect(response.status).toBe(200);
  });
});
