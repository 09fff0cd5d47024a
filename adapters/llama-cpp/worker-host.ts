/**
 * The HTTP side of the llama.cpp engine: starts the worker process, sends it
 * requests by id, turns its messages back into async streams, and restarts it
 * when it dies, however it dies (in-flight requests fail with a 503). A child
 * process rather than a thread, so that an abort inside llama.cpp cannot take
 * the proxy down. Token events are tiny, so they are forwarded without back-pressure.
 */
import type { ChildProcess } from 'node:child_process';
import { localModelShuttingDown, workerCrashed } from '../../src/errors/catalogue.js';
import { ProxyError, type ErrorType } from '../../src/errors/proxy-error.js';
import type { Message } from '../../src/model/request.js';
import { renderModelChat, type RenderedPrompt, type RenderModelChatOptions } from './chat-template.js';
import { defaultCacheDir } from './model-source.js';
import { TerminalProgress } from './progress.js';
import { promptTooLong } from './prompt-byte-bound.js';
import { abortError } from './scheduler.js';
import type {
  HostMessage,
  LlamaBackendOptions,
  LlamaErrorData,
  LlamaEvent,
  LlamaGenerateRequest,
  LlamaModelInfo,
  WorkerInit,
  WorkerMessage,
} from './types.js';
import { forkWorker } from './worker-process.js';
import { EventChannel } from './event-channel.js';

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Runs GGUF models through node-llama-cpp in a worker process.
 * @example
 * const host = new LlamaWorkerHost({ model: 'builtin', parallel: 2 });
 * for await (const event of host.generate({ prompt: 'Once upon a time', maxTokens: 16, stop: [], onContextOverflow: 'truncate' })) {
 *   if (event.type === 'token') process.stdout.write(event.text);
 * }
 * await host.close();
 */
export class LlamaWorkerHost {
  private worker?: ChildProcess;
  private starting?: Promise<LlamaModelInfo>;
  private modelInfo?: LlamaModelInfo;
  private closing = false;
  private nextId = 1;
  private restartDelayMs = 250;
  /** Restarts after a crash, for the metrics. */
  restarts = 0;
  private readonly channels = new Map<number, EventChannel<LlamaEvent>>();
  private readonly calls = new Map<number, PendingCall>();
  private readonly progress: TerminalProgress;

  constructor(private readonly options: LlamaBackendOptions) {
    this.progress = new TerminalProgress('[llama-cpp]', options.showProgress ?? Boolean(process.stderr.isTTY));
  }

  /** Model facts, once loaded. */
  get info(): LlamaModelInfo | undefined {
    return this.modelInfo;
  }

  /** Starts the worker and loads the model (once; again after a crash). Rejects with a 503 ProxyError. */
  start(): Promise<LlamaModelInfo> {
    if (this.closing) return Promise.reject(localModelShuttingDown());
    this.starting ??= this.launch();
    return this.starting;
  }

  /**
   * Streams one generation. Throws ProxyErrors (400 context_length_exceeded, 429
   * queue_full with retryAfterSeconds, 503 worker_crashed) and an AbortError
   * when `signal` aborts; the worker then frees the sequence within one token.
   * A text prompt longer in bytes than the context can hold is refused here, before it crosses to the worker.
   */
  async *generate(request: LlamaGenerateRequest, signal?: AbortSignal): AsyncGenerator<LlamaEvent> {
    if (signal?.aborted) throw abortError();
    const info = await this.start();
    if (typeof request.prompt === 'string') refuseTooLong(request.prompt, info);
    const worker = this.worker as ChildProcess;
    const id = this.nextId++;
    const channel = new EventChannel<LlamaEvent>();
    this.channels.set(id, channel);
    this.ref(worker);
    const onAbort = () => {
      channel.fail(abortError(), { immediately: true });
      this.send(worker, { type: 'abort', id });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    this.send(worker, { type: 'generate', id, request });
    let ended = false;
    try {
      for await (const event of channel) {
        if (event.type === 'end') ended = true;
        yield event;
        if (ended) return;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.channels.delete(id);
      if (!ended && !signal?.aborted) this.send(worker, { type: 'abort', id });
      this.unrefWhenIdle();
    }
  }

  /**
   * Token ids of `text` (special tokens parsed unless `special: false`), without BOS. A text longer
   * in bytes than the context can hold is refused (400 context_length_exceeded) without tokenizing;
   * a long one waits for the worker's tokenizer thread, within `queueLimit` (else a 429 queue_full).
   */
  async tokenize(text: string, options: { special?: boolean; signal?: AbortSignal } = {}): Promise<number[]> {
    if (options.signal?.aborted) throw abortError();
    refuseTooLong(text, await this.start());
    return (await this.call({ type: 'tokenize', text, special: options.special ?? true }, options.signal)) as number[];
  }

  async detokenize(tokens: number[]): Promise<string> {
    return (await this.call({ type: 'detokenize', tokens })) as string;
  }

  /** Messages -> prompt with the model's chat template (ChatML when the GGUF has none). */
  async renderChat(messages: readonly Message[], options: RenderModelChatOptions = {}): Promise<RenderedPrompt> {
    return renderModelChat(await this.start(), messages, options);
  }

  /** Stops the worker; pending requests fail with a 503. */
  async close(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    this.failAll(localModelShuttingDown());
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.send(worker, { type: 'shutdown' });
    const timer = setTimeout(() => worker.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    this.worker = undefined;
  }

  /** Makes the worker fail as a bug in our code would, or `native`ly as llama.cpp aborting (tests of the restart path). */
  simulateCrash(kind: 'error' | 'native' = 'error'): void {
    if (this.worker) this.send(this.worker, { type: 'crash', native: kind === 'native' });
  }

  private async launch(): Promise<LlamaModelInfo> {
    const init: WorkerInit = { options: this.options, cacheDir: this.options.cacheDir ?? defaultCacheDir() };
    const worker = await forkWorker();
    this.worker = worker;
    this.send(worker, { type: 'init', init });
    return new Promise<LlamaModelInfo>((resolve, reject) => {
      let lastError: unknown;
      const receive = (message: WorkerMessage) => {
        if (message.type === 'ready') {
          this.modelInfo = message.info;
          this.restartDelayMs = 250;
          this.progress.done();
          this.unrefWhenIdle();
          resolve(message.info);
        } else if (message.type === 'startup-failed') {
          this.progress.done();
          lastError = proxyErrorOf(message.error);
          reject(lastError);
          // It ignores SIGTERM (the host decides when it stops): a worker that failed to start has nothing to finish.
          worker.kill('SIGKILL');
        } else if (message.type === 'fatal') {
          // The old worker drains and exits on its own; new requests go to a new one at once.
          lastError = new Error(message.message);
          this.retire(worker, workerCrashed(`The local model's worker failed (${message.message}); it is being restarted.`, lastError));
        } else {
          this.onMessage(message);
        }
      };
      worker.on('message', (batch: WorkerMessage[]) => {
        for (const message of batch) receive(message);
      });
      worker.on('error', (error) => {
        lastError = error;
      });
      worker.on('exit', (code, signal) => {
        const why = lastError instanceof Error ? lastError.message : signal ? `killed by ${signal}` : `exit code ${code}`;
        const crash = workerCrashed(`The local model's worker stopped (${why}); it is being restarted.`, lastError);
        reject(lastError instanceof ProxyError ? lastError : crash);
        this.retire(worker, crash);
      });
    });
  }

  /** Forgets a dead or dying worker: its requests fail, and a worker that had been ready is restarted. */
  private retire(worker: ChildProcess, error: ProxyError): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.starting = undefined;
    this.failAll(error);
    if (!this.closing && this.modelInfo !== undefined) this.scheduleRestart();
  }

  private scheduleRestart(): void {
    this.restarts += 1;
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(30_000, delay * 2);
    const timer = setTimeout(() => {
      if (!this.closing && !this.starting) this.start().catch(() => undefined);
    }, delay);
    timer.unref();
  }

  private onMessage(message: WorkerMessage): void {
    switch (message.type) {
      case 'progress':
        this.progress.update(message.phase === 'download' ? 'download' : 'load', message.fraction);
        break;
      case 'event': {
        const channel = this.channels.get(message.id);
        channel?.push(message.event);
        if (message.event.type === 'end') channel?.end();
        break;
      }
      case 'failed': {
        const error = proxyErrorOf(message.error);
        this.channels.get(message.id)?.fail(error);
        this.settle(message.id, (call) => call.reject(error));
        break;
      }
      case 'result':
        this.settle(message.id, (call) => call.resolve(message.value));
        break;
    }
  }

  /** One request and its answer; `signal` takes it back (the worker drops it if it is still waiting). */
  private async call(
    message: { type: 'tokenize'; text: string; special: boolean } | { type: 'detokenize'; tokens: number[] },
    signal?: AbortSignal,
  ): Promise<unknown> {
    await this.start();
    const worker = this.worker as ChildProcess;
    const id = this.nextId++;
    this.ref(worker);
    const onAbort = () => {
      this.settle(id, (call) => call.reject(abortError()));
      this.send(worker, { type: 'abort', id });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await new Promise((resolve, reject) => {
        this.calls.set(id, { resolve, reject });
        this.send(worker, { ...message, id });
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private settle(id: number, action: (call: PendingCall) => void): void {
    const call = this.calls.get(id);
    if (!call) return;
    this.calls.delete(id);
    action(call);
    this.unrefWhenIdle();
  }

  private send(worker: ChildProcess, message: HostMessage): void {
    // A send to a worker that just died fails; its 'exit' handler reports that.
    if (this.worker === worker && worker.connected) worker.send(message, undefined, undefined, () => undefined);
  }

  private failAll(error: ProxyError): void {
    for (const channel of this.channels.values()) channel.fail(error);
    for (const call of this.calls.values()) call.reject(error);
    this.calls.clear();
  }

  /** A busy worker keeps the process alive; an idle one does not. */
  private ref(worker: ChildProcess): void {
    worker.ref();
    worker.channel?.ref();
  }

  private unrefWhenIdle(): void {
    if (this.channels.size > 0 || this.calls.size > 0) return;
    this.worker?.unref();
    this.worker?.channel?.unref();
  }
}

const typeByStatus: Record<number, ErrorType> = { 400: 'invalid_request_error', 429: 'rate_limit_error' };

/** A text the context cannot hold, by its bytes alone: refused before it crosses to the worker (which checks again). */
export function refuseTooLong(text: string, info: LlamaModelInfo): void {
  const tooLong = promptTooLong(text, info.contextSize, info.byteBound);
  if (tooLong) throw proxyErrorOf(tooLong);
}

function proxyErrorOf(data: LlamaErrorData): ProxyError {
  return new ProxyError({
    status: data.status,
    type: typeByStatus[data.status] ?? 'server_error',
    code: data.code,
    param: data.param ?? null,
    message: data.message,
    retryAfterSeconds: data.retryAfterSeconds,
  });
}
