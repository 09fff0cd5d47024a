/** `dialect-proxy fields [FIELD] [--format text|markdown|json]`: prints the fate table; needs no config. */
import { closestName } from '../../config/closest-name.js';
import { escapeControls } from '../../logging/logger.js';
import { parseCommandLine, UsageError } from '../parse-command-line.js';
import { buildFateTable, type FateTable } from './fate-table.js';
import { FATE_TABLE_FORMATS, REGENERATE, renderFateTable, type FateTableFormat } from './render-fate-table.js';

export const fieldsUsage = `Usage: dialect-proxy fields [FIELD] [--format text|markdown|json]

  Prints every request field of each dialect with its fate, and what each
  backend kind does with it (default settings). With FIELD (e.g. top_k), that
  field alone, in every dialect that has it.

  --format, -f  text (default: for a terminal), markdown (docs/fields.md: ${REGENERATE}) or json
  --help, -h    this text`;

/**
 * Returns the text to print, or throws a UsageError naming the bad option or field.
 * @example process.stdout.write(await fieldsCommand(['top_k', '--format', 'json']));
 */
export async function fieldsCommand(args: readonly string[], { width }: { width?: number } = {}): Promise<string> {
  const { values, positionals } = parseCommandLine({
    args: [...args],
    allowPositionals: true,
    options: { format: { type: 'string', short: 'f', default: 'text' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return `${fieldsUsage}\n`;
  const format = values.format as FateTableFormat;
  if (!FATE_TABLE_FORMATS.includes(format)) throw new UsageError(`--format: text, markdown or json (got "${values.format}")`);
  if (positionals.length > 1) throw new UsageError(`one field at a time (got ${positionals.join(', ')})`);
  const table = await buildFateTable();
  const field = positionals[0];
  return renderFateTable(field === undefined ? table : only(table, field), format, width !== undefined ? { width } : {});
}

/** The table cut to one field's rows, in every dialect that has it. */
function only(table: FateTable, field: string): FateTable {
  const dialects = table.dialects.map((dialect) => ({ ...dialect, rows: dialect.rows.filter((row) => row.field === field) }));
  if (dialects.some((dialect) => dialect.rows.length > 0)) return { ...table, dialects: dialects.filter((d) => d.rows.length > 0) };
  const known = [...new Set(table.dialects.flatMap((dialect) => dialect.rows.map((row) => row.field)))];
  const guess = closestName(field, known);
  throw new UsageError(`no request field "${field}" in any dialect${guess ? ` (did you mean ${guess}?)` : ''}`);
}

/** The CLI entry: prints the table (or the problem, exit 2) and returns the exit code. */
export async function runFieldsCommand(args: readonly string[]): Promise<number> {
  let text: string;
  try {
    text = await fieldsCommand(args, process.stdout.isTTY ? { width: process.stdout.columns } : {});
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // The message may repeat the command line's FIELD or --format value.
    console.error(`dialect-proxy fields: ${escapeControls(error.message)}`);
    return 2;
  }
  // `dialect-proxy fields | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(text);
  return 0;
}
