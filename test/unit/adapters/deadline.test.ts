import { jest } from '@jest/globals';
import { Deadline } from '../../../adapters/transport/deadline.js';
import { mapTransportError } from '../../../adapters/map-transport-error.js';

describe('Deadline: the caller signal or totalMs, whichever comes first', () => {
  test("the caller's abort reaches every listener once, with the caller's reason", () => {
    const caller = new AbortController();
    const deadline = new Deadline(caller.signal, 60_000);
    const heard: unknown[] = [];
    deadline.addEventListener('abort', () => heard.push(deadline.reason));
    deadline.addEventListener('abort', () => heard.push('second'));
    caller.abort(new Error('caller left'));
    caller.abort(new Error('again'));
    expect(deadline.aborted).toBe(true);
    expect(heard).toEqual([new Error('caller left'), 'second']);
  });

  test('past its time it aborts with a TimeoutError, which maps to a 504', async () => {
    const deadline = new Deadline(new AbortController().signal, 5);
    const reason = await new Promise((resolve) => deadline.addEventListener('abort', () => resolve(deadline.reason)));
    expect(reason).toMatchObject({ name: 'TimeoutError', message: 'No complete answer within 5 ms.' });
    expect(mapTransportError(new Error('aborted'), { url: 'http://backend.test/v1', signal: deadline }).status).toBe(504);
  });

  test('a listener taken off is not told', () => {
    const caller = new AbortController();
    const deadline = new Deadline(caller.signal, 60_000);
    const heard: string[] = [];
    const listener = () => heard.push('removed');
    deadline.addEventListener('abort', listener);
    deadline.addEventListener('abort', () => heard.push('kept'));
    deadline.removeEventListener('abort', listener);
    caller.abort();
    expect(heard).toEqual(['kept']);
  });

  test('once cleared, neither the timer nor the caller aborts it, and it holds no listener on the caller', async () => {
    const caller = new AbortController();
    const added = jest.spyOn(caller.signal, 'addEventListener');
    const removed = jest.spyOn(caller.signal, 'removeEventListener');
    const deadline = new Deadline(caller.signal, 5);
    deadline.clear();
    expect(removed).toHaveBeenCalledWith('abort', added.mock.calls[0][1]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    caller.abort();
    expect(deadline.aborted).toBe(false);
  });

  test('a caller that has already left: aborted from the start, and a listener added then is never told', () => {
    const caller = new AbortController();
    caller.abort(new Error('gone'));
    const deadline = new Deadline(caller.signal, 60_000);
    const listener = jest.fn();
    deadline.addEventListener('abort', listener);
    expect(deadline.aborted).toBe(true);
    expect(deadline.reason).toEqual(new Error('gone'));
    expect(listener).not.toHaveBeenCalled();
  });
});
