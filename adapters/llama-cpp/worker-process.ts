/**
 * Forks the worker process (worker-main.ts), which then waits for its `init`. A server start
 * forks one early (`forkSpareWorker`, from the kind's `startEarly`), so that the worker loads
 * node-llama-cpp while the proxy's own modules load, not after: the first host to launch takes it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resolveWorkerScript } from './worker-script.js';

let spare: Promise<ChildProcess> | undefined;

/** A worker process awaiting its `init`: the spare if one was forked, else a new one. */
export async function forkWorker(): Promise<ChildProcess> {
  const taken = spare;
  spare = undefined;
  const worker = taken && (await taken.catch(() => undefined));
  if (worker && worker.exitCode === null && worker.signalCode === null && worker.connected) {
    worker.ref();
    worker.channel?.ref();
    return worker;
  }
  // The parent's execArgv (inspector, profilers, jest's flags) is not the worker's business.
  return fork(fileURLToPath(await resolveWorkerScript()), [], {
    serialization: 'advanced',
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** Forks a worker for the first `forkWorker` to take (the same one, resolved). Untaken, it holds nothing open and exits with the proxy (its channel closes). */
export function forkSpareWorker(): Promise<ChildProcess> {
  spare ??= forkWorker().then((worker) => {
    worker.unref();
    worker.channel?.unref();
    return worker;
  });
  spare.catch(() => undefined); // a failed fork is forked again by the host, which reports its own failure
  return spare;
}
