/**
 * What the commands print of their input, made inert: a field name, a model or
 * an error message from a request file must not drive the terminal it is
 * printed on (ESC [ ... moves the cursor or clears the screen, OSC sets the
 * title, BEL rings, a newline forges a line of the report). The renderers
 * escape each value from the input with the readable log's `escapeControls`
 * (control characters as `\u001b`); the commands write through this writer,
 * the last guard (a JSON document escapes C0 controls in its strings, not DEL or C1).
 */
import { escapeControls } from '../logging/logger.js';

/**
 * Each line's control characters escaped, the line feeds kept (they are the printer's own).
 * @example escapeLines('{"model": "\u009b2J"}\n') // '{"model": "\\u009b2J"}\n'
 */
export function escapeLines(text: string): string {
  return text.split('\n').map(escapeControls).join('\n');
}

/**
 * A writer that escapes what it writes, keeping its line feeds.
 * @example const out = escapingWriter((text) => process.stdout.write(text));
 */
export function escapingWriter(write: (text: string) => void): (text: string) => void {
  return (text) => write(escapeLines(text));
}
