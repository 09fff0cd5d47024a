import { Writable } from 'node:stream';
import { createLogger, redact } from '../../src/logging/logger.js';

function linesOf(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, sink };
}

describe('logger redaction', () => {
  test('credential keys and bearer tokens are masked at any depth', () => {
    expect(redact({ headers: { authorization: 'Bearer sk-1', 'x-api-key': 'k' }, apiKey: 'k2', note: 'sent Bearer abc.def' })).toEqual({
      headers: { authorization: '[redacted]', 'x-api-key': '[redacted]' },
      apiKey: '[redacted]',
      note: 'sent Bearer [redacted]',
    });
  });

  test('a log entry never reaches the transport with a secret in it', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    createLogger({ json: true, stream: sink }).info('upstream call', {
      headers: { authorization: 'Bearer sk-live-999' },
      apiKey: 'sk-live-999',
    });
    expect(lines.join('')).not.toContain('sk-live-999');
    expect(JSON.parse(lines[0])).toMatchObject({
      message: 'upstream call',
      apiKey: '[redacted]',
      headers: { authorization: '[redacted]' },
    });
  });

  test('a JSON line is one object: level, time and message first, then the fields as given', () => {
    const { lines, sink } = linesOf();
    createLogger({ json: true, stream: sink }).info('request', { requestId: 'r1', status: 200, url: 'https://x/?key=AIza-secret' });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['level', 'timestamp', 'message', 'requestId', 'status', 'url']);
    expect(line).toMatchObject({ level: 'info', message: 'request', requestId: 'r1', status: 200, url: 'https://x/?key=[redacted]' });
    expect(new Date(line.timestamp as string).toISOString()).toBe(line.timestamp);
  });

  test('what JSON cannot hold is written, not thrown: a bigint as its digits, a function left out, a cycle cut at the depth bound', () => {
    const { lines, sink } = linesOf();
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    createLogger({ json: true, stream: sink }).info('odd', { big: 12345678901234567890n, fn: () => 1, toJSON: () => 'hijacked', cycle });
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(line).toMatchObject({ message: 'odd', big: '12345678901234567890' });
    expect(line).not.toHaveProperty('fn');
    expect(JSON.stringify(line.cycle)).toContain('[nested deeper than 6 levels]');
  });
});
