/** Command lines that cannot run: one line naming the option, and the closest known one. */
import { parseCommandLine, UsageError } from '../../../src/commands/parse-command-line.js';

const options = {
  config: { type: 'string', short: 'c' },
  port: { type: 'string', short: 'p' },
  help: { type: 'boolean', short: 'h' },
} as const;

const parse = (args: string[], allowPositionals = false) => parseCommandLine({ args, options, allowPositionals });

test('a valid line parses as parseArgs parses it', () => {
  expect(parse(['-c', 'a.yaml', '--port=80', '-h']).values).toEqual({ config: 'a.yaml', port: '80', help: true });
  expect(parse(['x.json', '--port', '1'], true).positionals).toEqual(['x.json']);
});

test.each([
  [['--prot', '8099'], 'unknown option --prot (did you mean --port?)'],
  [['--verbose'], 'unknown option --verbose (options: --config, --port, --help)'],
  [['-x'], 'unknown option -x (options: --config, --port, --help)'],
  [['--config'], '--config needs a value'],
  [['-c'], '-c needs a value'],
  [['--help=yes'], '--help takes no value'],
  [['serve'], 'unexpected argument "serve"'],
])('%j: %s', (args, message) => {
  expect(() => parse(args)).toThrow(new UsageError(message));
});
