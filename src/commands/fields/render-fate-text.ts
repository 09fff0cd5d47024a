/**
 * The fate table for a terminal: per dialect, each field with one line per
 * backend, long details wrapped under their column. Pure.
 */
import type { FateRow, FateTable, Treatment } from './fate-table.js';

const LEGEND = [
  "native: sent on (honouring it is then the backend's part)    emulated: the proxy does it",
  'rejected: a 400 naming the field    ignored: accepted, nothing of it reaches the backend    n/a: the dialect rejects it',
];

/**
 * @example renderFateText(await buildFateTable(), { width: 100 })
 * // openai-chat: POST /v1/chat/completions
 * //
 * //   top_k (map: sampling.topK)
 * //     openai        rejected: not supported by this backend (or dropped ...)
 */
export function renderFateText(table: FateTable, { width = 100 }: { width?: number } = {}): string {
  const nameWidth = Math.max(...table.backends.map(({ name }) => name.length)) + 2;
  const backends = table.backends.map((b) => `${b.name} (${b.speaks.join(', ')})`).join(', ');
  const lines = [...LEGEND, `Backends, with each kind's default settings: ${backends}.`];
  for (const dialect of table.dialects) {
    if (dialect.rows.length === 0) continue;
    lines.push('', `${dialect.dialect}: ${dialect.route}`);
    for (const row of dialect.rows)
      lines.push(
        '',
        ...renderRow(
          row,
          table.backends.map(({ name }) => name),
          { nameWidth, width },
        ),
      );
  }
  return `${lines.join('\n')}\n`;
}

function renderRow(row: FateRow, names: readonly string[], { nameWidth, width }: { nameWidth: number; width: number }): string[] {
  const lines = [`  ${row.field} (${row.fate}${row.note ? `: ${oneLine(row.note)}` : ''})`];
  const indent = 4 + nameWidth;
  for (const name of names) {
    const cells = (row.backends[name] ?? []).map(describe);
    cells.forEach((cell, i) => {
      const lead = i === 0 ? `    ${name.padEnd(nameWidth)}` : ' '.repeat(indent);
      const [first, ...rest] = wrap(cell, Math.max(20, width - indent - 2));
      lines.push(`${lead}${first}`, ...rest.map((line) => `${' '.repeat(indent + 2)}${line}`));
    });
  }
  return lines;
}

function describe({ label, outcome, detail }: Treatment): string {
  return `${label === undefined ? '' : `${oneLine(label)}: `}${outcome}${detail === undefined ? '' : `: ${oneLine(detail)}`}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

/** Words into lines of at most `width` (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}
