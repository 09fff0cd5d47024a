/**
 * One llama.cpp engine for every process of `dialect-proxy --workers N`.
 *
 * A `llama-cpp` backend normally starts its own engine (worker-host.ts): a
 * child process that loads the model. With N HTTP workers that would be N
 * copies of the model, so by default the cluster's primary process owns the
 * one engine (`serveSharedLlamaHosts`), and each HTTP worker's adapter talks to
 * it through the cluster's IPC channel (`RelayedLlamaHost`, installed with
 * `useLlamaHosts`): one model in memory, generation requests from every worker
 * scheduled by the one engine (its `parallel` sequences, its `queueLimit`). A
 * backend with `perWorker: true` is left alone: each worker loads its own copy.
 *
 * Nothing here loads node-llama-cpp itself: the engine runs in its own child
 * process, as it always does.
 */
import type { Worker } from 'node:cluster';
import { localModelShuttingDown } from '../../src/errors/catalogue.js';
import { ProxyError, type ErrorType } from '../../src/errors/proxy-error.js';
import { EventChannel } from './event-channel.js';
import { abortError } from './scheduler.js';
import type { LlamaBackendOptions, LlamaEvent, LlamaGenerateRequest, LlamaModelInfo } from './types.js';
import { LlamaWorkerHost, refuseTooLong } from './worker-host.js';

/** What an adapter needs of an engine: the real one (LlamaWorkerHost) or the relay to the primary's. */
export interface LlamaHost {
  readonly info: LlamaModelInfo | undefined;
  /** Restarts of the engine's process after a crash. */
  readonly restarts: number;
  start(): Promise<LlamaModelInfo>;
  generate(request: LlamaGenerateRequest, signal?: AbortSignal): AsyncGenerator<LlamaEvent>;
  /**
   * The model's tokens for a text (special tokens parsed); absent where the host cannot ask the model (the relay
   * under --workers). A text past what the context holds is a 400, a long one past the queue limit a 429.
   */
  tokenize?(text: string, options?: { special?: boolean; signal?: AbortSignal }): Promise<number[]>;
  close(): Promise<void>;
}

type HostFactory = (backend: string, options: LlamaBackendOptions) => LlamaHost | undefined;
let factory: HostFactory | undefined;

/** From now on, `createLlamaHost` asks `next` first (undefined: a host of the backend's own). */
export function useLlamaHosts(next: HostFactory | undefined): void {
  factory = next;
}

export function createLlamaHost(backend: string, options: LlamaBackendOptions): LlamaHost {
  return factory?.(backend, options) ?? new LlamaWorkerHost(options);
}

/** Messages between an HTTP worker and the primary, all tagged `dialectProxyLlama`. */
type ToPrimary =
  | { dialectProxyLlama: 'start'; backend: string; call: number }
  | { dialectProxyLlama: 'generate'; backend: string; call: number; request: LlamaGenerateRequest }
  | { dialectProxyLlama: 'abort'; call: number };

type ToWorker =
  | { dialectProxyLlama: 'started'; call: number; info: LlamaModelInfo; restarts: number }
  | { dialectProxyLlama: 'event'; call: number; event: LlamaEvent }
  | { dialectProxyLlama: 'ended'; call: number; restarts: number }
  | { dialectProxyLlama: 'failed'; call: number; error: ErrorData; restarts: number };

interface ErrorData {
  name: string;
  message: string;
  status?: number;
  type?: ErrorType;
  code?: string | null;
  param?: string | null;
  retryAfterSeconds?: number;
}

function errorData(error: unknown): ErrorData {
  if (error instanceof ProxyError) {
    return {
      name: error.name,
      message: error.message,
      status: error.status,
      type: error.type,
      code: error.code,
      param: error.param,
      ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    };
  }
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  return { name, message };
}

function errorOf(data: ErrorData): Error {
  if (data.name === 'AbortError') return abortError();
  if (data.status === undefined || data.type === undefined) return new Error(data.message);
  return new ProxyError({
    status: data.status,
    type: data.type,
    code: data.code ?? null,
    param: data.param ?? null,
    message: data.message,
    ...(data.retryAfterSeconds !== undefined ? { retryAfterSeconds: data.retryAfterSeconds } : {}),
  });
}

function isToPrimary(message: unknown): message is ToPrimary {
  return typeof message === 'object' && message !== null && 'dialectProxyLlama' in message;
}

/**
 * In an HTTP worker: the primary's engine for `backend`, through IPC. Closing it
 * closes nothing but this worker's requests: the primary stops the engine once
 * every worker has gone.
 */
export class RelayedLlamaHost implements LlamaHost {
  info: LlamaModelInfo | undefined;
  restarts = 0;
  private closed = false;
  private readonly calls = new Map<
    number,
    { channel?: EventChannel<LlamaEvent>; started?: { resolve(info: LlamaModelInfo): void; reject(error: unknown): void } }
  >();

  constructor(
    private readonly backend: string,
    private readonly channel: Pick<NodeJS.Process, 'send' | 'on'> = process,
    private readonly nextCall: () => number = counter(),
  ) {
    channel.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && 'dialectProxyLlama' in message) this.receive(message as ToWorker);
    });
  }

  start(): Promise<LlamaModelInfo> {
    if (this.closed) return Promise.reject(localModelShuttingDown());
    const call = this.nextCall();
    return new Promise((resolve, reject) => {
      this.calls.set(call, { started: { resolve, reject } });
      this.send({ dialectProxyLlama: 'start', backend: this.backend, call });
    });
  }

  async *generate(request: LlamaGenerateRequest, signal?: AbortSignal): AsyncGenerator<LlamaEvent> {
    if (signal?.aborted) throw abortError();
    if (this.closed) throw localModelShuttingDown();
    // Once the model is known: a prompt the context cannot hold need not cross to the primary.
    if (this.info && typeof request.prompt === 'string') refuseTooLong(request.prompt, this.info);
    const call = this.nextCall();
    const channel = new EventChannel<LlamaEvent>();
    this.calls.set(call, { channel });
    const onAbort = () => {
      channel.fail(abortError(), { immediately: true });
      this.send({ dialectProxyLlama: 'abort', call });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    this.send({ dialectProxyLlama: 'generate', backend: this.backend, call, request });
    let ended = false;
    try {
      for await (const event of channel) {
        if (event.type === 'end') ended = true;
        yield event;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.calls.delete(call);
      // The consumer stopped early: free the engine's sequence.
      if (!ended && !signal?.aborted) this.send({ dialectProxyLlama: 'abort', call });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { channel, started } of this.calls.values()) {
      channel?.fail(localModelShuttingDown());
      started?.reject(localModelShuttingDown());
    }
    this.calls.clear();
  }

  private receive(message: ToWorker): void {
    const pending = this.calls.get(message.call);
    if ('restarts' in message) this.restarts = message.restarts;
    if (!pending) return;
    switch (message.dialectProxyLlama) {
      case 'started':
        this.info = message.info;
        this.calls.delete(message.call);
        pending.started?.resolve(message.info);
        break;
      case 'event':
        pending.channel?.push(message.event);
        break;
      case 'ended':
        pending.channel?.end();
        break;
      case 'failed':
        this.calls.delete(message.call);
        pending.channel?.fail(errorOf(message.error));
        pending.started?.reject(errorOf(message.error));
        break;
    }
  }

  private send(message: ToPrimary): void {
    this.channel.send?.(message, undefined, undefined, () => undefined);
  }
}

function counter(): () => number {
  let next = 1;
  return () => next++;
}

/**
 * In the primary: one engine per shared backend, serving every HTTP worker's
 * requests. `watch(worker)` for each worker forked; `close()` once they have all
 * exited.
 */
export interface SharedLlamaHosts {
  /** Starts every engine now (the model loads while the workers come up); rejects with the first failure. */
  start(): Promise<void>;
  watch(worker: Pick<Worker, 'id' | 'on' | 'send' | 'isConnected'>): void;
  close(): Promise<void>;
}

export function serveSharedLlamaHosts(
  backends: ReadonlyMap<string, LlamaBackendOptions>,
  create: (options: LlamaBackendOptions) => LlamaHost = (options) => new LlamaWorkerHost(options),
): SharedLlamaHosts {
  const hosts = new Map([...backends].map(([name, options]) => [name, create(options)]));
  const running = new Map<string, AbortController>();
  return {
    async start() {
      await Promise.all([...hosts.values()].map((host) => host.start()));
    },
    watch(worker) {
      const send = (message: ToWorker) => {
        if (worker.isConnected()) worker.send(message, undefined, () => undefined);
      };
      const fail = (call: number, host: LlamaHost | undefined, error: unknown) =>
        send({ dialectProxyLlama: 'failed', call, error: errorData(error), restarts: host?.restarts ?? 0 });
      worker.on('message', (message: unknown) => {
        if (!isToPrimary(message)) return;
        const key = `${worker.id}:${message.call}`;
        if (message.dialectProxyLlama === 'abort') {
          running.get(key)?.abort();
          return;
        }
        const host = hosts.get(message.backend);
        if (!host) {
          fail(message.call, host, new Error(`No shared llama.cpp backend "${message.backend}" in the primary.`));
          return;
        }
        if (message.dialectProxyLlama === 'start') {
          host.start().then(
            (info) => send({ dialectProxyLlama: 'started', call: message.call, info, restarts: host.restarts }),
            (error: unknown) => fail(message.call, host, error),
          );
          return;
        }
        const controller = new AbortController();
        running.set(key, controller);
        void (async () => {
          try {
            for await (const event of host.generate(message.request, controller.signal))
              send({ dialectProxyLlama: 'event', call: message.call, event });
            send({ dialectProxyLlama: 'ended', call: message.call, restarts: host.restarts });
          } catch (error) {
            fail(message.call, host, error);
          } finally {
            running.delete(key);
          }
        })();
      });
      // A worker that dies leaves nothing running in the engine.
      worker.on('exit', () => {
        for (const [key, controller] of running) if (key.startsWith(`${worker.id}:`)) controller.abort();
      });
    },
    async close() {
      for (const controller of running.values()) controller.abort();
      await Promise.all([...hosts.values()].map((host) => host.close()));
    },
  };
}
