/**
 * node:util's parseArgs with one-line messages a person can act on: an unknown
 * option names the closest known one, a missing value names its option. Every
 * command line of `dialect-proxy` goes through it.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName } from '../config/closest-name.js';

/** A command line the command cannot run: the message says what to change. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses `config.args`, or throws a UsageError such as `unknown option --prot (did you mean --port?)`.
 * @example const { values } = parseCommandLine({ args: ['--port', '80'], options: { port: { type: 'string' } } });
 */
export function parseCommandLine<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const options: Options = config.options ?? {};
  // Read leniently first to name the problem; the strict read below then cannot fail.
  const { tokens = [] } = parseArgs({ ...config, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional' && !config.allowPositionals) throw new UsageError(`unexpected argument "${token.value}"`);
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (!option) throw new UsageError(unknownOption(token.rawName, options));
    if (option.type === 'string' && token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
    if (option.type === 'boolean' && token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
  }
  return parseArgs(config);
}

function unknownOption(rawName: string, options: Options): string {
  const long = Object.keys(options);
  const short = Object.values(options).flatMap((option) => (option.short ? [option.short] : []));
  const isShort = !rawName.startsWith('--');
  const typed = rawName.replace(/^-+/, '');
  // One letter is one typo from every other: no guess there.
  const guess = isShort && typed.length === 1 ? undefined : closestName(typed, isShort ? [...short, ...long] : long);
  if (guess !== undefined) return `unknown option ${rawName} (did you mean ${guess.length === 1 ? '-' : '--'}${guess}?)`;
  return `unknown option ${rawName} (options: ${long.map((name) => `--${name}`).join(', ')})`;
}
