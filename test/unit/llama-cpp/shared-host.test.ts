/** adapters/llama-cpp/shared-host.ts: a worker's relay and the primary's engine, joined by an in-memory channel. */
import { EventEmitter } from 'node:events';
import { RelayedLlamaHost, serveSharedLlamaHosts, type LlamaHost } from '../../../adapters/llama-cpp/shared-host.js';
import type { LlamaEvent, LlamaGenerateRequest, LlamaModelInfo } from '../../../adapters/llama-cpp/types.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';

const info = {
  path: '/m.gguf',
  name: 'm',
  architecture: 'llama',
  contextSize: 256,
  trainContextSize: 256,
  vocabularySize: 10,
  parallel: 1,
  threads: 1,
} as LlamaModelInfo;
const request = { prompt: 'Once', maxTokens: 2, stop: [], onContextOverflow: 'truncate' } as unknown as LlamaGenerateRequest;

/** A fake engine: two tokens and an end; or a 429 for the prompt "busy"; or tokens until aborted for "forever". */
class FakeHost implements LlamaHost {
  info = info;
  restarts = 3;
  aborted = 0;
  start = async () => info;
  close = async () => undefined;
  async *generate(req: LlamaGenerateRequest, signal?: AbortSignal): AsyncGenerator<LlamaEvent> {
    if (req.prompt === 'busy')
      throw new ProxyError({ status: 429, type: 'rate_limit_error', code: 'queue_full', message: 'full', retryAfterSeconds: 2 });
    yield { type: 'prompt', tokenIds: [1, 2] };
    if (req.prompt === 'forever') {
      for (;;) {
        if (signal?.aborted) {
          this.aborted += 1;
          return;
        }
        yield { type: 'token', text: 'x', tokenIds: [3] };
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    yield { type: 'token', text: 'Hi', tokenIds: [3] };
    yield { type: 'end', finishReason: 'length', usage: { promptTokens: 2, completionTokens: 1 }, perf: {} } as unknown as LlamaEvent;
  }
}

/** The worker's process and the primary's Worker object, wired to each other (JSON round trip, as IPC does). */
function pair() {
  const toWorker = new EventEmitter();
  const toPrimary = new EventEmitter();
  const copy = (message: unknown) => JSON.parse(JSON.stringify(message)) as unknown;
  const workerSide = {
    send: (message: unknown) => {
      setImmediate(() => toPrimary.emit('message', copy(message)));
      return true;
    },
    on: (event: string, listener: (message: unknown) => void) => {
      toWorker.on(event, listener);
      return workerSide;
    },
  };
  const primarySide = {
    id: 7,
    isConnected: () => true,
    send: (message: unknown) => {
      setImmediate(() => toWorker.emit('message', copy(message)));
      return true;
    },
    on: (event: string, listener: (message: unknown) => void) => {
      toPrimary.on(event, listener);
      return primarySide;
    },
  };
  return { workerSide, primarySide, exit: () => toPrimary.emit('exit') };
}

function setUp() {
  const engine = new FakeHost();
  const hosts = serveSharedLlamaHosts(new Map([['local', { model: 'builtin' }]]), () => engine);
  const { workerSide, primarySide, exit } = pair();
  hosts.watch(primarySide as never);
  const relay = new RelayedLlamaHost('local', workerSide as never);
  return { engine, relay, exit };
}

describe('the shared llama.cpp engine', () => {
  it("starts and generates through the relay, with the engine's restarts", async () => {
    const { relay } = setUp();
    expect(await relay.start()).toEqual(info);
    const events: LlamaEvent[] = [];
    for await (const event of relay.generate(request)) events.push(event);
    expect(events.map(({ type }) => type)).toEqual(['prompt', 'token', 'end']);
    expect(relay.restarts).toBe(3);
  });

  it('carries a ProxyError across whole (status, code, Retry-After)', async () => {
    const { relay } = setUp();
    const failure = await (async () => {
      for await (const _event of relay.generate({ ...request, prompt: 'busy' })) void _event;
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProxyError);
    expect(failure).toMatchObject({ status: 429, code: 'queue_full', retryAfterSeconds: 2 });
  });

  it("aborts the engine's generation when the caller leaves", async () => {
    const { relay, engine } = setUp();
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of relay.generate({ ...request, prompt: 'forever' }, controller.signal)) {
        seen.push(event.type);
        if (seen.length === 3) controller.abort();
      }
    })().catch((error: unknown) => (error as Error).name);
    expect(await run).toBe('AbortError');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(engine.aborted).toBe(1);
  });

  it('aborts what a worker had running when it exits', async () => {
    const { relay, engine, exit } = setUp();
    const iterator = relay.generate({ ...request, prompt: 'forever' })[Symbol.asyncIterator]();
    await iterator.next();
    exit();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(engine.aborted).toBe(1);
    await iterator.return?.(undefined);
  });

  it('fails the requests under way when the worker closes it', async () => {
    const { relay, engine } = setUp();
    const iterator = relay.generate({ ...request, prompt: 'forever' })[Symbol.asyncIterator]();
    await iterator.next();
    await relay.close();
    // What had arrived is delivered, then the failure.
    const ending = async () => {
      for (;;) if ((await iterator.next()).done) return 'done';
    };
    await expect(ending()).rejects.toMatchObject({ code: 'shutting_down' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(engine.aborted).toBe(1); // the relay's early stop freed the engine's sequence
    await expect(relay.start()).rejects.toMatchObject({ code: 'shutting_down' });
  });
});
