import { Writable } from 'node:stream';
import { createLogger, redact } from '../../src/logging/logger.js';

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
});
