/**
 * A thread of the worker process that tokenizes long texts, with its own copy of
 * the model's vocabulary (node-llama-cpp's `vocabOnly`: no weights), so that the
 * thread driving generation never stalls on one: node-llama-cpp tokenizes
 * synchronously, and a text of a few hundred kB takes from a tenth of a second to
 * several (SentencePiece is quadratic in a run of byte tokens).
 *
 * This module is also the thread's entry: the worker starts it again as a thread
 * (`new Worker(import.meta.url)`), which serves tokenize requests one at a time.
 * The thread is never terminated: terminating it inside a native tokenize aborts
 * the whole process (node-llama-cpp throws a C++ exception nothing catches), so
 * it is asked to close, and does once the text in hand is done.
 */
import { once } from 'node:events';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { getLlama, LlamaLogLevel, type Llama, type LlamaModel } from 'node-llama-cpp';

type Request = { id: number; text: string; special: boolean } | { close: true };
type Answer = { id: number; tokens: Uint32Array } | { id: number; error: string } | { ready: true } | { failed: string };

interface Pending {
  resolve(tokens: number[]): void;
  reject(error: unknown): void;
}

/** What marks the thread's own start (workerData), beside the model path. */
const THREAD_MARK = 'dialectProxyTokenizer';

/**
 * @example
 * const thread = await TokenizerThread.start('/models/qwen.gguf', { gpu: false }, (error) => console.error(error));
 * const tokens = await thread.tokenize('a long text', true);
 * await thread.close();
 */
export class TokenizerThread {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closing = false;
  private readonly exited: Promise<unknown>;

  private constructor(private readonly thread: Worker) {
    this.exited = once(thread, 'exit').catch(() => undefined);
  }

  /**
   * Starts the thread and loads the vocabulary; rejects if it cannot. Later, an error
   * in the thread fails what it was doing and is reported to `onFailure` (a bug: the
   * worker then restarts, as for any uncaught error of its own).
   */
  static start(modelPath: string, options: { gpu: boolean }, onFailure: (error: Error) => void): Promise<TokenizerThread> {
    // The same build of llama.cpp as the model's (`gpu`): one native library in the process.
    const thread = new Worker(new URL(import.meta.url), { workerData: { [THREAD_MARK]: modelPath, gpu: options.gpu } });
    const tokenizer = new TokenizerThread(thread);
    return new Promise((resolve, reject) => {
      let ready = false;
      let failed = false;
      const fail = (error: Error) => {
        if (failed || tokenizer.closing) return;
        failed = true;
        tokenizer.failAll(error);
        if (ready) onFailure(error);
        else reject(error);
      };
      thread.on('message', (answer: Answer) => {
        if ('ready' in answer) {
          ready = true;
          resolve(tokenizer);
        } else if ('failed' in answer) fail(new Error(`The tokenizer thread could not load the vocabulary: ${answer.failed}`));
        else tokenizer.settle(answer);
      });
      thread.on('error', (error) => fail(error));
      thread.on('exit', (code) => fail(new Error(`The tokenizer thread exited (code ${code}).`)));
    });
  }

  tokenize(text: string, special: boolean): Promise<number[]> {
    if (this.closing) return Promise.reject(new Error('The tokenizer thread is closing.'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ id, text, special });
    });
  }

  /** Stops the thread once the text in hand (if any) is tokenized: native code cannot be left midway. */
  async close(): Promise<void> {
    this.closing = true;
    this.failAll(new Error('The tokenizer thread is closing.'));
    this.post({ close: true });
    await this.exited;
  }

  private post(request: Request): void {
    this.thread.postMessage(request);
  }

  private settle(answer: { id: number; tokens: Uint32Array } | { id: number; error: string }): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    this.pending.delete(answer.id);
    if ('error' in answer) pending.reject(new Error(answer.error));
    else pending.resolve(Array.from(answer.tokens));
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

/** In the thread: load the vocabulary, then answer each text with its tokens, until asked to close. */
async function serve(port: NonNullable<typeof parentPort>, modelPath: string, gpu: boolean): Promise<void> {
  let llama: Llama | undefined;
  let model: LlamaModel;
  try {
    llama = await getLlama({ gpu: gpu ? 'auto' : false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
    model = await llama.loadModel({ modelPath, vocabOnly: true });
  } catch (error) {
    port.postMessage({ failed: (error as Error)?.message ?? String(error) } satisfies Answer);
    await llama?.dispose();
    port.close();
    return;
  }
  const vocabulary = model;
  const loaded = llama;
  port.on('message', (request: Request) => {
    if ('close' in request) {
      void vocabulary
        .dispose()
        .then(() => loaded.dispose())
        .finally(() => port.close());
      return;
    }
    try {
      const tokens = Uint32Array.from(vocabulary.tokenize(request.text, request.special));
      port.postMessage({ id: request.id, tokens } satisfies Answer, [tokens.buffer]);
    } catch (error) {
      port.postMessage({ id: request.id, error: (error as Error)?.message ?? String(error) } satisfies Answer);
    }
  });
  port.postMessage({ ready: true } satisfies Answer);
}

const data = workerData as Record<string, unknown> | null;
if (!isMainThread && parentPort && typeof data?.[THREAD_MARK] === 'string') void serve(parentPort, data[THREAD_MARK], data.gpu === true);
