/**
 * What `dialect-proxy audit` prints: the readable summary, and the progress bar while it reads a file.
 * Text from the file (field names, error messages) and the config (backend names) is escaped per cell (escaping-writer.ts).
 */
import type { AuditSummary } from './audit-summary.js';
import { escapeControls } from '../logging/logger.js';

/** A one-line bar redrawn at most every 100 ms: bytes read of the file, lines so far. */
export function progressBar(write: (text: string) => void, total: number): { update(bytes: number, lines: number): void; done(): void } {
  let last = 0;
  let drawn = false;
  const width = 30;
  return {
    update(bytes, lines) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      drawn = true;
      const share = total > 0 ? Math.min(1, bytes / total) : 0;
      const filled = Math.round(share * width);
      write(
        `\r  auditing [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${lines.toLocaleString('en-US')} requests`,
      );
    },
    done() {
      if (drawn) write('\r\u001b[K');
    },
  };
}

/** The readable summary: one table per target. */
export function renderAudit(summary: AuditSummary): string {
  const lines: string[] = [];
  const requests = summary.lines - summary.unreadable;
  const { tooLong } = summary;
  // Lines too long to read are unreadable too, listed apart: a line that is not JSON and one not read are different problems.
  const notJson = summary.unreadable - (tooLong?.lines ?? 0);
  const notes = [
    notJson > 0 ? `${notJson} unreadable line${plural(notJson)} (not a JSON object): ${lineNumbers(notJson, summary.unreadableLines)}` : '',
    tooLong
      ? `${tooLong.lines} unreadable line${plural(tooLong.lines)} (longer than ${tooLong.maxLineBytes} bytes, --max-line-bytes): ${lineNumbers(tooLong.lines, tooLong.lineNumbers)}`
      : '',
    summary.malformed.requests > 0 ? `${summary.malformed.requests} malformed` : '',
    summary.unrouted ? `${summary.unrouted} for a model no route serves` : '',
  ].filter(Boolean);
  lines.push(
    `Audit of ${escapeControls(summary.file)}: ${requests} request${plural(requests)}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`,
  );
  if (summary.malformed.requests > 0) {
    lines.push('', `Malformed (the caller's dialect refuses them; no backend sees them): ${summary.malformed.requests}`);
    lines.push(
      ...table(
        ['field', 'requests', 'first', 'error'],
        summary.malformed.fields.map((field) => [
          escapeControls(field.field),
          String(field.requests),
          `line ${field.line}`,
          escapeControls(field.reason),
        ]),
        [false, true, false, false],
      ),
    );
  }
  for (const target of summary.targets) {
    lines.push(
      '',
      `${escapeControls(`${target.target} (kind ${target.kind}, speaks ${target.speaks.join(' and ')})`)}: ${target.requests} request${plural(target.requests)}`,
    );
    const share = (n: number) => (target.requests > 0 ? `${((100 * n) / target.requests).toFixed(1)}%` : '-');
    lines.push(
      ...table(
        ['', 'requests', 'share'],
        [
          ['lossless', String(target.lossless), share(target.lossless)],
          ['lossy', String(target.lossy), share(target.lossy)],
          ['rejected', String(target.rejected), share(target.rejected)],
        ],
        [false, true, true],
      ),
    );
    if (target.changes.length > 0) {
      lines.push('');
      lines.push(
        ...table(
          ['field', 'change', 'requests', 'why (first seen)'],
          target.changes.map((change) => [
            escapeControls(change.to ? `${change.field} -> ${change.to}` : change.field),
            change.action + (change.lossy && change.action === 'converted' ? ' (lossy)' : ''),
            String(change.requests),
            escapeControls(change.reason),
          ]),
          [false, false, true, false],
        ),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const plural = (n: number) => (n === 1 ? '' : 's');

/** `line 8`, `lines 3, 8 and 12`; past the numbers kept, `and N more`. */
function lineNumbers(count: number, numbers: readonly number[]): string {
  const listed = numbers.map(String);
  const more = count - listed.length;
  if (more > 0) return `lines ${listed.join(', ')} and ${more} more`;
  if (listed.length === 1) return `line ${listed[0]}`;
  return `lines ${listed.slice(0, -1).join(', ')} and ${listed[listed.length - 1]}`;
}

/** Aligned columns, two spaces apart; `right` aligns a column's numbers. */
function table(head: string[], rows: string[][], right: boolean[]): string[] {
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    `  ${cells.map((cell, column) => (right[column] ? cell.padStart(widths[column]) : column === cells.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ')}`.trimEnd();
  return [line(head), ...rows.map(line)];
}
