/** `x-dialect-dry-run: 1` answers with what would go upstream, and nothing goes. */
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

describe('x-dialect-dry-run', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  const post = (path: string, body: unknown) =>
    fetch(proxy.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dialect-dry-run': '1' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'] });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('a completions request on a chat backend shows the translated chat requests, one per prompt', async () => {
    const response = await post('/v1/completions', { model: 'gpt-x', prompt: ['a', 'b'], max_tokens: 3, reasoning_effort: 3000 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      object: 'dialect.dry_run',
      dialect: 'fireworks-completions',
      backend: 'upstream',
      kind: 'openai',
      verdict: 'lossy',
      changes: [
        {
          field: 'reasoning_effort',
          action: 'converted',
          lossy: true,
          reason: 'a budget of 3000 thinking tokens was sent as reasoning_effort "medium" (the backend takes a named effort, not a budget)',
        },
        { field: 'prompt', action: 'emulated', lossy: false, reason: 'fanned out: one upstream request per prompt (2 requests)' },
        {
          field: 'prompt',
          action: 'converted',
          to: 'messages',
          lossy: false,
          reason:
            'sent as the user message of a chat request; reasoning the backend returns apart is put back into the text between think tags',
        },
        {
          field: 'max_tokens',
          action: 'renamed',
          to: 'max_completion_tokens',
          lossy: false,
          reason: 'the OpenAI chat API calls it max_completion_tokens',
        },
      ],
      warnings: ['reasoning_effort: a budget of 3000 thinking tokens was sent as reasoning_effort "medium"'],
      upstream: [
        {
          endpoint: '/chat/completions',
          stream: false,
          body: { model: 'gpt-x', messages: [{ role: 'user', content: 'a' }], max_completion_tokens: 3, reasoning_effort: 'medium' },
        },
        {
          endpoint: '/chat/completions',
          stream: false,
          body: { model: 'gpt-x', messages: [{ role: 'user', content: 'b' }], max_completion_tokens: 3, reasoning_effort: 'medium' },
        },
      ],
    });
    expect(upstream.requests).toHaveLength(0);
  });

  test('what the move would lose is the same 400 a real request gets, with every refusal beside it', async () => {
    const response = await post('/v1/completions', {
      model: 'gpt-x',
      prompt: 'hi',
      top_k: 5,
      thinking: { type: 'enabled', budget_tokens: 1024, budget_end_str: 'Answer:' },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: { param: string };
      dry_run: { verdict: string; changes: { field: string; action: string }[]; upstream: unknown[] };
    };
    expect(body.error.param).toBe('top_k');
    expect(body.dry_run.verdict).toBe('rejected');
    expect(body.dry_run.changes.filter((change) => change.action === 'rejected').map((change) => change.field)).toEqual([
      'top_k',
      'thinking.budget_end_str',
    ]);
    expect(body.dry_run.upstream).toHaveLength(1);
    expect(upstream.requests).toHaveLength(0);
  });

  test('a Responses request: the chat request it becomes upstream, and its changes', async () => {
    const response = await post('/v1/responses', {
      model: 'gpt-x',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
      max_output_tokens: 64,
      reasoning: { effort: 'low' },
      text: { format: { type: 'json_object' } },
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as {
      dialect: string;
      verdict: string;
      changes: { field: string; action: string; to?: string }[];
      upstream: unknown[];
    };
    expect(report).toMatchObject({
      object: 'dialect.dry_run',
      dialect: 'openai-responses',
      backend: 'upstream',
      kind: 'openai',
      // include reasoning.encrypted_content is served (the proxy seals the reasoning): nothing is lost.
      verdict: 'lossless',
    });
    expect(report.changes.map(({ field, action, to }) => ({ field, action, to }))).toEqual(
      expect.arrayContaining([
        { field: 'include', action: 'emulated', to: undefined },
        { field: 'max_output_tokens', action: 'renamed', to: 'max_completion_tokens' },
        { field: 'reasoning', action: 'converted', to: 'reasoning_effort' },
        { field: 'text', action: 'converted', to: 'response_format' },
      ]),
    );
    expect(report.upstream).toEqual([
      {
        endpoint: '/chat/completions',
        stream: true,
        body: {
          model: 'gpt-x',
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          ],
          max_completion_tokens: 64,
          response_format: { type: 'json_object' },
          reasoning_effort: 'low',
          stream: true,
          stream_options: { include_usage: true },
        },
      },
    ]);
    expect(upstream.requests).toHaveLength(0);
  });

  test('a Responses request the backend would refuse: the 400 a real request gets, naming the Responses field, the report beside it', async () => {
    const llamaServer = await startProxyFor(upstream.url, { kind: 'llama-server' });
    try {
      const response = await fetch(`${llamaServer.url}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dialect-dry-run': '1' },
        body: JSON.stringify({ model: 'm', input: 'Hi', text: { verbosity: 'low' } }),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as {
        error: { param: string };
        dry_run: { dialect: string; verdict: string; changes: { field: string; action: string }[] };
      };
      expect(body.error.param).toBe('text.verbosity');
      expect(body.dry_run).toMatchObject({ dialect: 'openai-responses', verdict: 'rejected' });
      expect(body.dry_run.changes.filter((change) => change.action === 'rejected').map((change) => change.field)).toEqual([
        'text.verbosity',
      ]);
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await llamaServer.close();
    }
  });

  test('a chat request to a completions-only backend names the rendered prompt as a conversion of messages, tools and stop', async () => {
    // ChatML chosen by the config: without it the template is a guess, a warning (test/e2e/first-hour-mistakes.test.ts).
    const completionsOnly = await startProxyFor(upstream.url, { kind: 'vllm', speaks: ['completions'], chatTemplate: 'chatml' });
    try {
      const response = await fetch(`${completionsOnly.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dialect-dry-run': '1' },
        body: JSON.stringify({
          model: 'm',
          messages: [{ role: 'user', content: 'Weather in Paris?' }],
          stop: 'END',
          tools: [
            {
              type: 'function',
              function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
            },
          ],
        }),
      });
      expect(response.status).toBe(200);
      const report = (await response.json()) as {
        verdict: string;
        warnings: string[];
        changes: { field: string; action: string; to?: string }[];
        upstream: { body: { prompt: string } }[];
      };
      expect(report.warnings).toEqual([]);
      expect(report.verdict).toBe('lossless');
      expect(report.changes.map(({ field, action, to }) => ({ field, action, to }))).toEqual([
        { field: 'messages', action: 'converted', to: 'prompt' },
        { field: 'tools', action: 'converted', to: 'prompt' },
        { field: 'stop', action: 'converted', to: undefined },
      ]);
      expect(report.upstream[0].body.prompt).toContain('<tools>');
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await completionsOnly.close();
    }
  });
});
