/**
 * `dialect-proxy audit`: the known answer of the fixture (test/cli-golden/audit/requests.jsonl),
 * counted request by request below, and a file too big to hold in memory read in flat memory.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { audit, exitCodeOfAudit, readRecord, runAuditCommand } from '../../src/commands/audit-command.js';
import type { TargetSummary } from '../../src/commands/audit-summary.js';
import { renderAudit } from '../../src/commands/audit-output.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.resolve(here, '../cli-golden/audit/requests.jsonl');
const cli = path.resolve(here, '../../dist/src/cli.js');

const counts = (target: TargetSummary) =>
  Object.fromEntries(target.changes.map((change) => [`${change.field} ${change.action}`, change.requests]));

describe('dialect-proxy audit', () => {
  test("the fixture's known answer, towards strict OpenAI and towards Fireworks", async () => {
    const summary = await audit(fixture, { kinds: ['openai', 'fireworks'] });
    // 13 lines: one empty (skipped), one not JSON, one with max_tokens -1 (the dialect refuses it).
    // Lines are the file's own numbers, blank ones counted: the unreadable one is line 8, the malformed one line 10.
    expect(summary).toMatchObject({
      lines: 12,
      unreadable: 1,
      unreadableLines: [8],
      malformed: { requests: 1, fields: [{ field: 'max_tokens', requests: 1, line: 10 }] },
    });
    expect(renderAudit(summary)).toMatch(/^Audit of .*: 11 requests \(1 unreadable line \(not a JSON object\): line 8, 1 malformed\)$/m);
    expect(renderAudit(summary)).toMatch(/^ {2}max_tokens +1 {2}line 10 {2}max_tokens must be at least 0/m);
    const [openai, fireworks] = summary.targets;
    // Lossless: the plain completion, the two plain chats, the chat with a cache key, n: 2.
    // Lossy: the thinking budget (approximated by an effort), the reasoning in the history (dropped).
    // Rejected: top_k, min_p, top_k + min_p.
    expect(openai).toMatchObject({ target: 'openai', requests: 10, lossless: 5, lossy: 2, rejected: 3 });
    expect(counts(openai)).toEqual({
      'min_p rejected': 2,
      'top_k rejected': 2,
      'messages[*].reasoning_content dropped': 1,
      'thinking.budget_tokens converted': 1,
      'prompt converted': 4,
      'max_tokens renamed': 4,
    });
    expect(fireworks).toMatchObject({ target: 'fireworks', requests: 10, lossless: 10, lossy: 0, rejected: 0 });
    expect(counts(fireworks)).toEqual({ 'thinking converted': 1 });
    expect(exitCodeOfAudit(summary)).toBe(2);
  });

  test('unreadable lines by their numbers: the first 20, then how many more', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-lines-'));
    const file = path.join(dir, 'log.jsonl');
    const request = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
    // Line 1 a request, line 2 blank, then 25 broken lines (3..27), then a request.
    const lines = [request, '', ...Array.from({ length: 25 }, (_, i) => `{"cut off ${i}`), request];
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(file);
      out.on('error', reject);
      out.end(lines.join('\n') + '\n', resolve);
    });
    try {
      const summary = await audit(file, { kinds: ['openai'] });
      expect(summary.unreadable).toBe(25);
      expect(summary.unreadableLines).toEqual(Array.from({ length: 20 }, (_, i) => i + 3));
      expect(renderAudit(summary)).toContain(
        '25 unreadable lines (not a JSON object): lines 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22 and 5 more',
      );
      const few = { ...summary, unreadable: 3, unreadableLines: [3, 8, 12] };
      expect(renderAudit(few)).toContain('3 unreadable lines (not a JSON object): lines 3, 8 and 12');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Responses requests: by their keys, or by the endpoint or path a record names', async () => {
    const body = { model: 'm', input: 'Hi' };
    expect(readRecord(JSON.stringify(body))).toEqual({ body });
    expect(readRecord(JSON.stringify({ body, path: '/v1/responses' }))).toEqual({ body, endpoint: 'responses' });
    expect(readRecord(JSON.stringify({ body, endpoint: 'https://api.openai.com/v1/responses' }))).toEqual({ body, endpoint: 'responses' });
    expect(readRecord(JSON.stringify({ body, endpoint: 'responses', path: '/v1/chat/completions' }))).toEqual({
      body,
      endpoint: 'responses',
    });
    expect(readRecord(JSON.stringify({ body: { model: 'm', prompt: 'x' }, path: '/v1/completions' }))).toEqual({
      body: { model: 'm', prompt: 'x' },
      endpoint: 'completions',
    });
    expect(readRecord(JSON.stringify({ body, path: '/v1/embeddings' }))).toEqual({ body });

    // 7 lines: 5 Responses requests (two with a field the proxy refuses: a forced hosted tool, previous_response_id without a
    // store; valid requests, so rejected with the rest translated, not malformed), one chat, one completions.
    const summary = await audit(path.resolve(here, '../cli-golden/audit/responses-api/requests.jsonl'), { kinds: ['openai'] });
    expect(summary.malformed).toMatchObject({ requests: 0, fields: [] });
    const [openai] = summary.targets;
    expect(openai).toMatchObject({ requests: 7, lossless: 4, lossy: 0, rejected: 3 });
    expect(counts(openai)).toMatchObject({
      'tool_choice rejected': 1,
      'previous_response_id rejected': 1,
      'input converted': 5,
      'instructions converted': 1,
      'include emulated': 1,
      'max_output_tokens renamed': 1,
      'reasoning converted': 1,
    });
  });

  test('routed by a configuration: a table per backend, and the request no route serves', async () => {
    const summary = await audit(fixture, { config: path.resolve(here, '../cli-golden/audit/proxy.yaml') });
    expect(summary.unrouted).toBe(1);
    expect(
      summary.targets.map(({ target, requests, lossless, lossy, rejected }) => ({ target, requests, lossless, lossy, rejected })),
    ).toEqual([
      { target: 'fireworks', requests: 5, lossless: 5, lossy: 0, rejected: 0 },
      { target: 'openai', requests: 4, lossless: 3, lossy: 1, rejected: 0 },
    ]);
  });

  test('a request with a refused field for a model no route serves: unrouted, not malformed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-refused-'));
    try {
      const file = path.join(dir, 'requests.jsonl');
      const line = { model: 'no-such-model', input: 'Hi', previous_response_id: 'resp_1' };
      await new Promise<void>((resolve, reject) =>
        createWriteStream(file)
          .on('error', reject)
          .end(`${JSON.stringify(line)}\n`, resolve),
      );
      const summary = await audit(file, { config: path.resolve(here, '../cli-golden/audit/proxy.yaml') });
      expect(summary.malformed.requests).toBe(0);
      expect(summary.unrouted).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a progress bar on a terminal: drawn on stderr, then cleared; stdout keeps only the report', async () => {
    let out = '';
    let err = '';
    const code = await runAuditCommand([fixture, '--to', 'openai', '--json'], {
      out: (text) => {
        out += text;
      },
      err: (text) => {
        err += text;
      },
      progress: true,
    });
    expect(code).toBe(2);
    expect(err).toMatch(/^\r {2}auditing \[[#-]{30}\] +\d+% {2}\d+ requests/);
    expect(err.endsWith('\r\u001b[K')).toBe(true);
    expect((JSON.parse(out) as { object: string }).object).toBe('dialect.audit');
  });

  test('exit codes: 0 when all is lossless, 1 when something is lost, 2 when refused', () => {
    const target = (lossy: number, rejected: number): TargetSummary => ({
      target: 't',
      kind: 'openai',
      speaks: ['chat'],
      requests: 1,
      lossless: 0,
      lossy,
      rejected,
      changes: [],
    });
    const summary = (targets: TargetSummary[]) => ({
      object: 'dialect.audit' as const,
      file: 'f',
      lines: 1,
      unreadable: 0,
      unreadableLines: [],
      malformed: { requests: 0, fields: [] },
      targets,
    });
    expect(exitCodeOfAudit(summary([target(0, 0)]))).toBe(0);
    expect(exitCodeOfAudit(summary([target(1, 0)]))).toBe(1);
    expect(exitCodeOfAudit(summary([target(1, 1)]))).toBe(2);
  });

  test('streams the file: 120 MB of requests through a process limited to a 64 MB heap', async () => {
    expect(existsSync(cli)).toBe(true);
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-'));
    const file = path.join(dir, 'big.jsonl');
    try {
      // Each line ~2 KB; the whole file would not fit in the heap the audit gets.
      const prompt = 'Once upon a time, '.repeat(110);
      const lines = 60_000;
      await new Promise<void>((resolve, reject) => {
        const out = createWriteStream(file);
        out.once('error', reject);
        let i = 0;
        const write = () => {
          let ok = true;
          while (i < lines && ok) {
            const body = i % 3 === 0 ? { model: 'm', prompt, max_tokens: 8, top_k: 40 } : { model: 'm', prompt, max_tokens: 8 };
            ok = out.write(`${JSON.stringify(body)}\n`);
            i += 1;
          }
          if (i < lines) out.once('drain', write);
          else out.end(resolve);
        };
        write();
      });
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--max-old-space-size=64', cli, 'audit', file, '--to', 'openai', '--json'], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let text = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        child.once('error', reject);
        child.once('close', (exit) => resolve({ code: exit, stdout: text }));
      });
      expect(code).toBe(2);
      const summary = JSON.parse(stdout) as { lines: number; targets: TargetSummary[] };
      expect(summary.lines).toBe(60_000);
      expect(summary.targets[0]).toMatchObject({ requests: 60_000, lossless: 40_000, rejected: 20_000 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
