/**
 * llama-server's error frames inside a stream are refined as its error bodies
 * are (refine-error.ts): the field its message names becomes the error's param.
 */
import { createLlamaServerAdapter } from '../../../adapters/llama-server/llama-server-adapter.js';
import { emptyRequest } from '../../../src/model/request.js';
import { eachEvent } from '../../../src/streaming/stream-batches.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

describe('llama-server stream errors', () => {
  let upstream: MockUpstream;
  beforeAll(async () => {
    upstream = await startMockUpstream();
  });
  afterAll(() => upstream.close());

  test("an error frame after the first token names the caller's field", async () => {
    upstream.reply({
      sse: [
        chunk('Hel') +
          `data: ${JSON.stringify({ error: { code: 400, message: "Field 'n': Value must be between 1 <= value <= 4, but got 8", type: 'invalid_request_error' } })}\n\n`,
      ],
    });
    const adapter = createLlamaServerAdapter({ kind: 'llama-server', url: `${upstream.url}/v1` });
    try {
      const request = {
        ...emptyRequest('chat', 'm'),
        messages: [{ role: 'user' as const, content: 'Hi' }],
        stream: { includeUsage: false, tokenIds: false },
        origins: { choices: 'n' as const },
      };
      const events = [];
      for await (const event of eachEvent(adapter.stream(request, { signal: new AbortController().signal, requestId: 'r' })))
        events.push(event);
      expect(events.map((event) => event.type)).toEqual(['response-start', 'text-delta', 'error']);
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { status: 400, param: 'n' } });
    } finally {
      await adapter.close?.();
    }
  });
});
