/** InFlight: what a shutdown waits for, and how it ends the requests still running. */
import { InFlight } from '../../../src/pipeline/in-flight.js';

describe('InFlight', () => {
  test('end() aborts every request in flight with its reason, and each that begins after; one that left is not touched', () => {
    const inFlight = new InFlight();
    const [left, running, late] = [new AbortController(), new AbortController(), new AbortController()];
    inFlight.enter(left);
    inFlight.enter(running);
    inFlight.leave(left);
    const reason = new Error('shutting down');
    inFlight.end(reason);
    expect(left.signal.aborted).toBe(false);
    expect(running.signal.reason).toBe(reason);
    inFlight.enter(late);
    expect(late.signal.reason).toBe(reason);
  });

  test('idle() resolves when the last request leaves (at once with none)', async () => {
    const inFlight = new InFlight();
    await inFlight.idle();
    const [a, b] = [new AbortController(), new AbortController()];
    inFlight.enter(a);
    inFlight.enter(b);
    expect(inFlight.size).toBe(2);
    let idle = false;
    const waiting = inFlight.idle().then(() => {
      idle = true;
    });
    inFlight.leave(a);
    await Promise.resolve();
    expect(idle).toBe(false);
    inFlight.leave(b);
    await waiting;
    expect(inFlight.size).toBe(0);
  });
});
