/**
 * The worker process: loads the model once, owns one context with `parallel`
 * sequences, queues requests for them, and streams generation events back to
 * the host over IPC. Everything heavy runs here, off the HTTP process, and a
 * native crash in llama.cpp ends only this process (the host restarts it).
 */
import { getLlama, LlamaLogLevel, type Llama, type LlamaContextSequence, type LlamaGrammar, type LlamaModel } from 'node-llama-cpp';
import { CacheEdits } from './cache-edits.js';
import { invalidLlamaRequest, LlamaRequestError, toErrorData } from './errors.js';
import { generate } from './generate.js';
import { resolveModelPath } from './model-source.js';
import { prepareGeneration, type ModelFacts } from './prepare-generation.js';
import { measurePromptByteBound, promptTooLong } from './prompt-byte-bound.js';
import { SequencePool } from './scheduler.js';
import { buildTokenBytes } from './token-bytes.js';
import { Tokenizer } from './tokenizer.js';
import { TokenizerThread } from './tokenizer-thread.js';
import { asToken, asTokens } from './token-ids.js';
import type {
  HostMessage,
  LlamaGenerateRequest,
  LlamaGrammarSpec,
  LlamaModelInfo,
  PromptByteBound,
  WorkerInit,
  WorkerMessage,
} from './types.js';
import { withIntegersOnly } from './json-schema-grammar.js';
import { Outbox } from './outbox.js';

interface Engine {
  llama: Llama;
  model: LlamaModel;
  facts: ModelFacts;
  pool: SequencePool<LlamaContextSequence>;
  tokenizer: Tokenizer;
  byteBound: PromptByteBound | undefined;
  tokenBytes: Uint8Array[];
  eogTokens: number[];
  grammars: Map<string, Promise<LlamaGrammar>>;
  cacheEdits: CacheEdits;
}

/** One 60 Hz frame: no reader sees tokens faster, and on a small CPU the saved wake-ups go to generation. */
const defaultStreamBatchMs = 16;
if (!process.send) throw new Error('worker-main runs as a child process with an IPC channel (see worker-host.ts)');
let outbox = new Outbox<WorkerMessage>(sendBatch, defaultStreamBatchMs);
const post = (message: WorkerMessage) => outbox.send(message);
const active = new Map<number, AbortController>();
const running = new Set<Promise<void>>();
let engine: Engine | undefined;
let starting: Promise<void> | undefined;
/** Closed before the process exits, even while the model still loads (a thread ended any other way can abort the process). */
let tokenizerThread: Promise<TokenizerThread> | undefined;
let stopping = false;

function sendBatch(batch: WorkerMessage[]): void {
  if (!process.connected) return;
  process.send?.(batch, undefined, undefined, (error: Error | null) => {
    if (error) void stop(1); // the channel broke: the host has gone
  });
}

// A bug must not end the process under native work in flight: report it, let generations
// stop at their next token, free the model, and exit cleanly.
process.on('uncaughtException', (error) => void fatal(error));
process.on('unhandledRejection', (error) => void fatal(error));

// The host went away (it exited or was killed): nothing is left to serve.
process.on('disconnect', () => void stop(0));

// Ctrl-C reaches the whole process group, and systemd signals the whole cgroup: the host
// decides when the worker stops (after its graceful shutdown), so these are not ours to act on.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);

process.on('message', (message: HostMessage) => {
  switch (message.type) {
    case 'init':
      if (starting) break;
      outbox = new Outbox<WorkerMessage>(sendBatch, message.init.options.streamBatchMs ?? defaultStreamBatchMs);
      starting = start(message.init).then(
        (info) => post({ type: 'ready', info }),
        (error: unknown) => {
          post({
            type: 'startup-failed',
            error: { status: 503, code: 'model_load_failed', message: (error as Error).message ?? String(error) },
          });
        },
      );
      break;
    case 'generate': {
      const handled = handleGenerate(message.id, message.request);
      running.add(handled);
      void handled.finally(() => running.delete(handled));
      break;
    }
    case 'abort':
      active.get(message.id)?.abort();
      break;
    case 'tokenize': {
      const controller = new AbortController();
      active.set(message.id, controller);
      void reply(message.id, (current) => tokenizeText(current, message.text, message.special, controller.signal)).finally(() =>
        active.delete(message.id),
      );
      break;
    }
    case 'detokenize':
      void reply(message.id, (current) => current.model.detokenize(asTokens(message.tokens), false));
      break;
    case 'crash':
      if (message.native) process.abort(); // as a failed assertion inside llama.cpp would
      setImmediate(() => {
        throw new Error('simulated crash');
      });
      break;
    case 'shutdown':
      void stop(0);
      break;
  }
});

async function start({ options, cacheDir }: WorkerInit): Promise<LlamaModelInfo> {
  const began = performance.now();
  const threads = options.threads ?? 1;
  const parallel = options.parallel ?? 1;
  const progress = throttledProgress();
  const modelPath = await resolveModelPath({
    model: options.model,
    cacheDir,
    stallMs: options.downloadStallMs ?? 30_000,
    onProgress: (fraction) => progress('download', fraction),
  });
  const llama = await getLlama({ gpu: options.gpu ? 'auto' : false, build: 'never', maxThreads: threads, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath, onLoadProgress: (fraction) => progress('load', fraction) });
  const contextSize = options.contextSize ?? Math.min(2048, model.trainContextSize);
  const context = await model.createContext({ contextSize, threads, sequences: parallel });
  const sequences = Array.from({ length: parallel }, () => context.getSequence());
  const metadata = model.fileInfo.metadata as unknown as {
    tokenizer?: { ggml?: { model?: string; tokens?: string[]; token_type?: number[] }; chat_template?: string };
    general?: { name?: string };
  };
  const vocabulary = metadata.tokenizer?.ggml;
  const tokenBytes = buildTokenBytes(
    { model: vocabulary?.model ?? '', tokens: vocabulary?.tokens ?? [], tokenTypes: vocabulary?.token_type },
    (token) => new TextEncoder().encode(model.detokenize([asToken(token)], false)),
  );
  const vocabularySize = tokenBytes.length;
  const eogTokens: number[] = [];
  for (let token = 0; token < vocabularySize; token++) if (model.isEogToken(asToken(token))) eogTokens.push(token);
  const byteBound = measurePromptByteBound(
    { model: vocabulary?.model ?? '', tokens: vocabulary?.tokens ?? [], tokenTypes: vocabulary?.token_type },
    (token) => {
      const attributes = model.getTokenAttributes(asToken(token));
      return attributes.lstrip || attributes.rstrip;
    },
  );
  const facts: ModelFacts = {
    bos: model.tokens.bos,
    addBos: model.tokens.shouldPrependBosToken,
    vocabularySize,
    contextSize: context.contextSize,
  };
  const queueLimit = options.queueLimit ?? 16 * parallel;
  const pool = new SequencePool(
    sequences,
    queueLimit,
    (sequence, prompt) => sequence.compareContextTokens(asTokens(prompt)).firstDifferentIndex,
  );
  // The tokenizer thread loads its copy of the vocabulary once the model has loaded, not meanwhile: its
  // start (node-llama-cpp tests its library in a child process) would slow the model's by as much on
  // two cores. Until it is up, a long text waits for it; short ones never need it.
  tokenizerThread = TokenizerThread.start(modelPath, { gpu: options.gpu ?? false }, (error) => void fatal(error));
  tokenizerThread.catch((error: unknown) => void fatal(error));
  const tokenizer = new Tokenizer({ inline: (text, special) => model.tokenize(text, special), thread: tokenizerThread, queueLimit });
  engine = {
    llama,
    model,
    facts,
    pool,
    tokenizer,
    byteBound,
    tokenBytes,
    eogTokens,
    grammars: new Map(),
    cacheEdits: new CacheEdits(),
  };
  return {
    path: modelPath,
    name: metadata.general?.name ?? modelPath,
    architecture: String(model.fileInfo.metadata.general.architecture),
    contextSize: context.contextSize,
    trainContextSize: model.trainContextSize,
    vocabularySize,
    parallel,
    threads,
    chatTemplate: metadata.tokenizer?.chat_template,
    bosToken: model.tokens.bosString ?? undefined,
    eosToken: model.tokens.eosString ?? undefined,
    addBos: model.tokens.shouldPrependBosToken,
    loadMs: performance.now() - began,
    ...(byteBound ? { byteBound } : {}),
  };
}

async function handleGenerate(id: number, request: LlamaGenerateRequest): Promise<void> {
  const receivedAt = performance.now();
  const controller = new AbortController();
  active.set(id, controller);
  let sequence: LlamaContextSequence | undefined;
  const current = engine;
  try {
    if (stopping) throw new LlamaRequestError({ status: 503, code: 'worker_stopping', message: 'The local model is restarting.' });
    if (!current) throw new LlamaRequestError({ status: 503, code: 'model_not_ready', message: 'The local model is not loaded.' });
    const tokens =
      typeof request.prompt === 'string' ? await tokenizeText(current, request.prompt, true, controller.signal) : request.prompt;
    const prepared = prepareGeneration(request, tokens, current.facts);
    const grammar = request.grammar ? await loadGrammar(current, request.grammar) : undefined;
    sequence = await current.pool.acquire(prepared.promptTokens, controller.signal);
    const events = generate({
      prepared,
      sequence,
      model: current.model,
      llama: current.llama,
      grammar,
      tokenBytes: current.tokenBytes,
      eogTokens: current.eogTokens,
      cacheEdits: current.cacheEdits,
      isAborted: () => controller.signal.aborted,
      receivedAt,
      startedAt: performance.now(),
    });
    let firstTokenSent = false;
    for await (const event of events) {
      if (controller.signal.aborted) continue;
      // The first token (with the prompt event before it) and the end leave at once; the tokens between may wait for the window.
      const urgent = event.type === 'end' || (event.type === 'token' && !firstTokenSent);
      if (urgent) outbox.send({ type: 'event', id, event });
      else outbox.push({ type: 'event', id, event });
      firstTokenSent ||= event.type === 'token';
    }
  } catch (error) {
    if (controller.signal.aborted) return;
    post({ type: 'failed', id, error: toErrorData(error) });
  } finally {
    active.delete(id);
    if (sequence) current?.pool.release(sequence);
  }
}

/** Grammars are compiled once per distinct spec. */
function loadGrammar(current: Engine, spec: LlamaGrammarSpec): Promise<LlamaGrammar> {
  const key = JSON.stringify(spec);
  let grammar = current.grammars.get(key);
  if (!grammar) {
    grammar = compileGrammar(current.llama, spec);
    grammar.catch(() => current.grammars.delete(key));
    if (current.grammars.size >= 64) current.grammars.delete(current.grammars.keys().next().value as string);
    current.grammars.set(key, grammar);
  }
  return grammar;
}

async function compileGrammar(llama: Llama, spec: LlamaGrammarSpec): Promise<LlamaGrammar> {
  try {
    if (spec.kind === 'json') return await llama.getGrammarFor('json');
    if (spec.kind === 'json-schema') {
      const generated = await llama.createGrammarForJsonSchema(spec.schema as Parameters<Llama['createGrammarForJsonSchema']>[0]);
      return await llama.createGrammar({
        grammar: withIntegersOnly(generated.grammar),
        stopGenerationTriggers: generated.stopGenerationTriggers,
        trimWhitespaceSuffix: generated.trimWhitespaceSuffix,
        rootRuleName: generated.rootRuleName,
      });
    }
    return await llama.createGrammar({ grammar: spec.text });
  } catch (error) {
    const param = spec.kind === 'gbnf' ? 'grammar' : 'response_format';
    throw invalidLlamaRequest(param, `The ${spec.kind === 'gbnf' ? 'grammar' : 'JSON schema'} cannot be used: ${(error as Error).message}`);
  }
}

/**
 * A text's tokens, refused first (context_length_exceeded) when its bytes alone say that it
 * cannot fit the context; a long text waits for the tokenizer thread, within the queue limit.
 */
function tokenizeText(current: Engine, text: string, special: boolean, signal: AbortSignal): Promise<number[]> {
  const tooLong = promptTooLong(text, current.facts.contextSize, current.byteBound);
  if (tooLong) return Promise.reject(new LlamaRequestError(tooLong));
  return current.tokenizer.tokenize(text, special, signal);
}

async function reply(id: number, compute: (current: Engine) => unknown): Promise<void> {
  try {
    if (!engine) throw new LlamaRequestError({ status: 503, code: 'model_not_ready', message: 'The local model is not loaded.' });
    post({ type: 'result', id, value: await compute(engine) });
  } catch (error) {
    // An aborted call's host has stopped waiting for it.
    if ((error as Error)?.name !== 'AbortError') post({ type: 'failed', id, error: toErrorData(error) });
  }
}

function throttledProgress(): (phase: 'download' | 'load', fraction: number) => void {
  let last = -1;
  let lastPhase = '';
  return (phase, fraction) => {
    if (phase === lastPhase && fraction - last < 0.01 && fraction < 1) return;
    last = fraction;
    lastPhase = phase;
    post({ type: 'progress', phase, fraction });
  };
}

async function fatal(error: unknown): Promise<void> {
  post({ type: 'fatal', message: (error as Error)?.message ?? String(error) });
  await stop(1);
}

/** Aborts every generation, waits for them to stop (within a token), closes the tokenizer thread, frees the model, exits. */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const controller of active.values()) controller.abort();
  try {
    await Promise.allSettled([...running]);
    // The text the thread is in is finished first, but not waited for past 2 s (a tokenizer with no byte bound).
    const thread = tokenizerThread?.then((started) => started.close());
    await Promise.race([thread?.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    await engine?.model.dispose();
    await engine?.llama.dispose();
  } finally {
    process.exit(code);
  }
}
