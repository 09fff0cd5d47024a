/**
 * A server start forks the worker process early (the kind's `startEarly`), and the host that
 * launches first takes that process instead of forking another: the worker loads llama.cpp while
 * the proxy's own modules load.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { forkSpareWorker, forkWorker } from '../../../adapters/llama-cpp/worker-process.js';

const stop = async (worker: ChildProcess) => {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = once(worker, 'exit');
  worker.kill('SIGKILL');
  await exited;
};

describe('the spare worker process', () => {
  test('the first fork takes the spare; the next one forks anew', async () => {
    const spare = await forkSpareWorker();
    const first = await forkWorker();
    const second = await forkWorker();
    try {
      expect(first).toBe(spare);
      expect(second).not.toBe(spare);
      expect(second.pid).not.toBe(spare.pid);
    } finally {
      await Promise.all([stop(first), stop(second)]);
    }
  }, 60_000);

  test('a spare that has died is not taken', async () => {
    const spare = await forkSpareWorker();
    await stop(spare);
    const worker = await forkWorker();
    try {
      expect(worker).not.toBe(spare);
      expect(worker.connected).toBe(true);
    } finally {
      await stop(worker);
    }
  }, 60_000);
});
