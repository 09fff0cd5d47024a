/** `dialect-proxy fields [--format markdown|json]`: prints the fate table; needs no config. */
import { parseArgs } from 'node:util';
import { buildFateTable } from './fate-table.js';
import { renderFateTable, type FateTableFormat } from './render-fate-table.js';

export const fieldsUsage = `Usage: dialect-proxy fields [--format markdown|json]

  Prints every request field of each dialect with its fate, and what each
  backend kind does with it (default settings).

  --format, -f  markdown (default) or json
  --help, -h    this text`;

/**
 * Returns the text to print, or throws an Error whose message names the bad option.
 * @example process.stdout.write(await fieldsCommand(['--format', 'json']));
 */
export async function fieldsCommand(args: readonly string[]): Promise<string> {
  const { values } = parseArgs({
    args: [...args],
    options: { format: { type: 'string', short: 'f', default: 'markdown' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return `${fieldsUsage}\n`;
  const format = values.format;
  if (format !== 'markdown' && format !== 'json') throw new Error(`--format: must be markdown or json, got "${format}"\n\n${fieldsUsage}`);
  return renderFateTable(await buildFateTable(), format as FateTableFormat);
}

/** The CLI entry: prints the table (or the problem) and returns the exit code. */
export async function runFieldsCommand(args: readonly string[]): Promise<number> {
  let text: string;
  try {
    text = await fieldsCommand(args);
  } catch (error) {
    console.error(`dialect-proxy fields: ${(error as Error).message}`);
    return 2;
  }
  // `dialect-proxy fields | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(text);
  return 0;
}
