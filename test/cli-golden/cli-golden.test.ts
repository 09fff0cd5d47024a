/**
 * Golden cases for the commands, run as a user runs them: the built
 * `dialect-proxy` (dist/src/cli.js; `npm test` builds first) in its own process,
 * in the case's folder: translate, audit, fields, and `start/`, the server's
 * start-up failures (each one line and an exit code). test/cli-golden/<command>/<case>/ holds:
 *
 *   case.json    {description, args, exit, stdin?}: the command line (paths relative to the
 *                case's folder), the exit code it must end with, a file to pipe to stdin
 *   stdout.txt   exactly what it must print (JSON documents included)
 *   stderr.txt   what it must print on stderr (absent: nothing)
 *   other files  the request, the recorded reply, the config the args name
 *
 * No case may print a stack trace. UPDATE_GOLDEN=1 rewrites stdout.txt and
 * stderr.txt where they differ (review the diff before committing).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CliCase {
  description: string;
  args: string[];
  exit: number;
  stdin?: string;
}

const root = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(root, '../../dist/src/cli.js');
const update = process.env.UPDATE_GOLDEN === '1';
const cases = ['translate', 'audit', 'fields', 'start'].flatMap((command) =>
  readdirSync(path.join(root, command), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(command, entry.name)),
);

function run(dir: string, spec: CliCase): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...spec.args], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({
        code,
        stdout,
        stderr: stderr
          .split('\n')
          .filter((line) => !/ExperimentalWarning|--trace-warnings/.test(line))
          .join('\n'),
      }),
    );
    child.stdin.end(spec.stdin ? readFileSync(path.join(dir, spec.stdin)) : undefined);
  });
}

function expectFile(dir: string, file: string, actual: string): void {
  const target = path.join(root, dir, file);
  const expected = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (update && expected !== actual) {
    if (actual === '') rmSync(target, { force: true });
    else writeFileSync(target, actual);
    console.log(`UPDATE_GOLDEN ${dir}: rewrote ${file}`);
    return;
  }
  expect(actual).toBe(expected);
}

test('the built command exists (npm test builds first)', () => {
  expect(existsSync(cli)).toBe(true);
});

describe.each(cases)('%s', (dir) => {
  const spec = JSON.parse(readFileSync(path.join(root, dir, 'case.json'), 'utf8')) as CliCase;

  test.concurrent(
    spec.description,
    async () => {
      const { code, stdout, stderr } = await run(path.join(root, dir), spec);
      expect(stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m); // never a stack trace
      expectFile(dir, 'stdout.txt', stdout);
      expectFile(dir, 'stderr.txt', stderr);
      expect({ exit: code }).toEqual({ exit: spec.exit });
      if (spec.args.includes('--json')) expect(() => JSON.parse(stdout) as unknown).not.toThrow();
    },
    60_000,
  );
});
