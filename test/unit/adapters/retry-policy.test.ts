/** Which failures are retried, how long to wait (full jitter, Retry-After), and the abortable sleep. */
import { retryAfterMs, retryDelay, sleep, type FailedTry } from '../../../adapters/retry-policy.js';
import { upstreamTimeout, upstreamUnreachable } from '../../../src/errors/catalogue.js';
import { clientClosedRequest, ProxyError } from '../../../src/errors/proxy-error.js';
import { mapUpstreamError } from '../../../adapters/map-upstream-error.js';

const RETRIES = { attempts: 3, initialDelayMs: 100, maxDelayMs: 1000 };
const http = (status: number, headers: Record<string, string> = {}): FailedTry => ({
  status,
  error: mapUpstreamError({ status, headers, body: '{"error":{"message":"x"}}' }),
});
const HIGH = () => 0.999999;

describe('retryDelay: what is retried', () => {
  test.each([429, 500, 502, 503, 504, 529])('HTTP %i is retried', (status) => {
    expect(retryDelay(http(status), 0, RETRIES, HIGH)).toBe(99);
  });

  test.each([400, 401, 403, 404, 408, 409, 413, 422, 501])('HTTP %i is not', (status) => {
    expect(retryDelay(http(status), 0, RETRIES, HIGH)).toBeUndefined();
  });

  test('no response: a connection failure or a timeout before the headers is retried', () => {
    expect(retryDelay({ error: upstreamUnreachable('refused', undefined) }, 0, RETRIES, HIGH)).toBe(99);
    expect(retryDelay({ error: upstreamTimeout('no headers') }, 0, RETRIES, HIGH)).toBe(99);
  });

  test("no response: the caller's abort or an error of the proxy's own is not", () => {
    expect(retryDelay({ error: clientClosedRequest() }, 0, RETRIES, HIGH)).toBeUndefined();
    expect(
      retryDelay(
        { error: new ProxyError({ status: 500, type: 'server_error', code: 'internal_error', message: 'bug' }) },
        0,
        RETRIES,
        HIGH,
      ),
    ).toBeUndefined();
  });

  test('`attempts` tries after the first, then none', () => {
    expect(retryDelay(http(503), 2, RETRIES, HIGH)).toBeDefined();
    expect(retryDelay(http(503), 3, RETRIES, HIGH)).toBeUndefined();
    expect(retryDelay(http(503), 0, { ...RETRIES, attempts: 0 }, HIGH)).toBeUndefined();
  });
});

describe('retryDelay: how long', () => {
  test('exponential steps with full jitter: a random wait in [0, step), the step doubling up to maxDelayMs', () => {
    expect([0, 1, 2, 3, 4, 5].map((attempt) => retryDelay(http(503), attempt, { ...RETRIES, attempts: 10 }, HIGH))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(retryDelay(http(503), 2, RETRIES, () => 0)).toBe(0);
    expect(retryDelay(http(503), 1, RETRIES, () => 0.5)).toBe(100);
  });

  test('Retry-After is honoured as given, without jitter, up to maxDelayMs', () => {
    expect(retryDelay(http(429, { 'retry-after': '0' }), 0, RETRIES, HIGH)).toBe(0);
    expect(retryDelay(http(429, { 'retry-after': '1' }), 0, RETRIES, HIGH)).toBe(1000);
    expect(retryDelay(http(503, { 'retry-after': '1' }), 2, RETRIES, () => 0)).toBe(1000);
  });

  test('a Retry-After longer than maxDelayMs is not waited for: the caller gets the 429 with it', () => {
    const failed = http(429, { 'retry-after': '2' });
    expect(retryDelay(failed, 0, RETRIES, HIGH)).toBeUndefined();
    expect(failed.error.retryAfterSeconds).toBe(2);
  });

  test('retryAfterMs, when the client read it from the headers, wins over the whole seconds of the error', () => {
    const failed = { ...http(429, { 'retry-after-ms': '120' }), retryAfterMs: 120 };
    expect(failed.error.retryAfterSeconds).toBe(1);
    expect(retryDelay(failed, 0, { ...RETRIES, maxDelayMs: 500 }, HIGH)).toBe(120);
  });
});

describe('retryAfterMs', () => {
  test('retry-after-ms first, then retry-after in seconds (fractions kept), then as an HTTP date', () => {
    expect(retryAfterMs({ 'retry-after-ms': '120', 'retry-after': '1' })).toBe(120);
    expect(retryAfterMs({ 'retry-after': '2' })).toBe(2000);
    expect(retryAfterMs({ 'retry-after': '0.25' })).toBe(250);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Tue, 01 Jan 2030 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterMs({ 'retry-after': 'Tue, 01 Jan 2029 00:00:03 GMT' }, now)).toBe(0);
  });

  test('absent, empty, negative or unreadable: undefined', () => {
    expect(retryAfterMs({})).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': '' })).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': '-1' })).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs({ 'retry-after-ms': 'x', 'retry-after': '3' })).toBe(3000);
  });
});

describe('sleep', () => {
  test('resolves after the wait', async () => {
    const started = Date.now();
    await sleep(30, new AbortController().signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  test("rejects with the signal's reason as soon as it aborts, and at once when it already has", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(10_000, controller.signal);
    const reason = new Error('gone');
    setTimeout(() => controller.abort(reason), 10);
    await expect(waiting).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(sleep(10, controller.signal)).rejects.toBe(reason);
  });
});
