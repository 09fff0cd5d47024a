/**
 * Attack: a request file (a recorded log, a body someone sent) made to drive
 * the terminal of whoever runs `dialect-proxy translate` or `audit` on it.
 * Field names, models and error messages were printed raw: ESC [ 2J cleared
 * the screen, OSC set the window title, BEL rang, C1's CSI (U+009B) slipped
 * through even the JSON documents (JSON escapes only C0). And one line of 587
 * MB ended `audit` with a RangeError (readline held the line whole). Now every
 * printer escapes what comes from the input (`\u001b`), the value unchanged
 * for a JSON reader, and `audit` reads each line to a byte bound
 * (--max-line-bytes, else server.maxBodyBytes): a longer line is counted
 * unreadable, by its number, and the next one is audited.
 */
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import { runTranslateCommand } from '../../src/commands/translate-command.js';
import { runAuditCommand } from '../../src/commands/audit-command.js';
import type { AuditSummary } from '../../src/commands/audit-summary.js';
import { runFieldsCommand } from '../../src/commands/fields/fields-command.js';

/** OSC (set the title) ended by BEL, CSI clear-screen, C1 CSI (red), and a line feed that would forge a line. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\nVerdict: LOSSLESS';
const SHOWN = '\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u000aVerdict: LOSSLESS';
/** The same inside a JSON string (JSON writes the line feed its own way). */
const SHOWN_IN_JSON = '\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\nVerdict: LOSSLESS';
/** What a terminal acts on: every C0 control but the printer's own line feeds, DEL and C1. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

type Command = (
  args: string[],
  io: { stdin?: NodeJS.ReadableStream; out?: (text: string) => void; err?: (text: string) => void },
) => Promise<number>;

async function run(command: Command, args: string[], input: string | Readable): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await command(args, {
    stdin: typeof input === 'string' ? Readable.from([input]) : input,
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

const chat = (extra: Record<string, unknown>) => JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('translate and audit print what comes from their input escaped', () => {
  test('translate: an unknown field named with escape sequences is shown escaped in the error a caller gets', async () => {
    const { code, out, err } = await run(runTranslateCommand, ['--to', 'openai'], chat({ [`x${HOSTILE}`]: 1 }));
    expect(code).toBe(2);
    expect(err).toBe('');
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).toContain(`(param x${SHOWN}): Unrecognized request argument supplied: x${SHOWN}`);
    // The line feed in the name did not make a line of its own.
    expect(out.split('\n').filter((line) => line.startsWith('Verdict:'))).toHaveLength(1);
  });

  test('translate: a model and a message with C1 controls, in the upstream body and in --json, escaped and the same value', async () => {
    const body = { model: `m${HOSTILE}`, messages: [{ role: 'user', content: `hi${HOSTILE}` }], top_k: 3 };
    const readable = await run(runTranslateCommand, ['--to', 'openai'], JSON.stringify(body));
    expect(readable.code).toBe(2);
    expect(readable.out).not.toMatch(RAW_CONTROL);
    expect(readable.out).toContain(`"model": "m${SHOWN_IN_JSON}"`);

    const json = await run(runTranslateCommand, ['--to', 'openai', '--json'], JSON.stringify(body));
    expect(json.out).not.toMatch(RAW_CONTROL);
    const document = JSON.parse(json.out) as { upstream: { body: typeof body }[] };
    expect(document.upstream[0].body.model).toBe(body.model);
    expect(document.upstream[0].body.messages[0].content).toBe(body.messages[0].content);
  });

  test('translate --as: the request in the other API, escaped', async () => {
    const { code, out } = await run(runTranslateCommand, ['--as', 'responses'], chat({ model: `m${HOSTILE}`, user: `u${HOSTILE}` }));
    expect(code).toBe(0);
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).toContain(`"model": "m${SHOWN_IN_JSON}"`);
  });

  test('audit: a malformed field named with escape sequences, in the table and in --json', async () => {
    const lines = `${chat({ [`x${HOSTILE}`]: 1 })}\n${chat({})}\n`;
    const readable = await run(runAuditCommand, ['-', '--to', 'openai'], lines);
    expect(readable.code).toBe(2);
    expect(readable.out).not.toMatch(RAW_CONTROL);
    expect(readable.out).toMatch(
      new RegExp(`^ {2}x${SHOWN.replace(/[\\[\]]/g, '\\$&')} +1 {2}line 1 {2}Unrecognized request argument`, 'm'),
    );

    const json = await run(runAuditCommand, ['-', '--to', 'openai', '--json'], lines);
    expect(json.out).not.toMatch(RAW_CONTROL);
    expect((JSON.parse(json.out) as AuditSummary).malformed.fields[0].field).toBe(`x${HOSTILE}`);
  });

  test('fields: a FIELD argument with escape sequences, in the one-line error', async () => {
    const printed: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((text: unknown) => void printed.push(String(text)));
    try {
      expect(await runFieldsCommand([`top_k${HOSTILE}`])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(printed).toHaveLength(1);
    expect(printed[0]).not.toMatch(RAW_CONTROL);
    expect(printed[0]).toContain(`no request field "top_k${SHOWN}"`);
  });
});

describe('audit reads each line to a byte bound', () => {
  test('a line over --max-line-bytes is unreadable, by its number; the lines around it are audited', async () => {
    const long = chat({ user: 'u'.repeat(5000) });
    // 1 a request (CRLF), 2 blank, 3 too long, 4 a request, 5 not JSON.
    const lines = `${chat({})}\r\n\n${long}\n${chat({ top_k: 3 })}\n{"cut off\n`;
    const { code, out } = await run(runAuditCommand, ['-', '--to', 'openai', '--max-line-bytes', '1000', '--json'], lines);
    expect(code).toBe(2);
    const summary = JSON.parse(out) as AuditSummary;
    expect(summary).toMatchObject({
      lines: 4,
      unreadable: 2,
      unreadableLines: [5],
      tooLong: { maxLineBytes: 1000, lines: 1, lineNumbers: [3] },
    });
    expect(summary.targets[0]).toMatchObject({ requests: 2, lossless: 1, rejected: 1 });

    const readable = await run(runAuditCommand, ['-', '--to', 'openai', '--max-line-bytes', '1000'], lines);
    expect(readable.out.split('\n')[0]).toBe(
      'Audit of -: 2 requests (1 unreadable line (not a JSON object): line 5, 1 unreadable line (longer than 1000 bytes, --max-line-bytes): line 3)',
    );
  });

  test('a 600 MB line (never held: streamed lazily) is unreadable under the default bound, server.maxBodyBytes; the next line is audited', async () => {
    const mib = Buffer.alloc(1024 * 1024, 'x');
    async function* input(): AsyncGenerator<Buffer> {
      yield Buffer.from('{"model": "m", "messages": "');
      for (let i = 0; i < 600; i += 1) yield mib;
      yield Buffer.from(`"}\n${chat({})}\n`);
    }
    const before = process.memoryUsage.rss();
    const started = Date.now();
    const { code, out, err } = await run(runAuditCommand, ['-', '--to', 'openai', '--json'], Readable.from(input()));
    expect(err).toBe('');
    expect(code).toBe(2);
    const summary = JSON.parse(out) as AuditSummary;
    expect(summary).toMatchObject({ lines: 2, unreadable: 1, tooLong: { maxLineBytes: 10 * 1024 * 1024, lines: 1, lineNumbers: [1] } });
    expect(summary.targets[0]).toMatchObject({ requests: 1, lossless: 1 });
    // Before: readline held the line until no string could (a RangeError); now it is counted and let go.
    expect(process.memoryUsage.rss() - before).toBeLessThan(200 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  test('--max-line-bytes takes a number of bytes', async () => {
    const { code, err } = await run(runAuditCommand, ['-', '--max-line-bytes', '10MB'], chat({}));
    expect(code).toBe(2);
    expect(err).toContain('--max-line-bytes: a number of bytes, at least 1 (got "10MB")');
  });
});
