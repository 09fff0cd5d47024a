/**
 * Neutral paths are typed: a typo does not compile. ts-jest only transpiles
 * (tsconfig.json sets isolatedModules), so the lines marked to be type errors
 * below are checked by the last tests here, which type-check this file with the
 * TypeScript compiler (the options of tsconfig.json, as `npm run lint`'s tsc):
 * a marked line that compiles, or an error anywhere else, fails them.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { setPath } from '../../../src/dialects/field-table.js';
import type { NeutralPath } from '../../../src/model/neutral-path.js';
import { emptyRequest } from '../../../src/model/request.js';

test('setPath writes a typed path and records its origin', () => {
  const request = emptyRequest('text');
  const path: NeutralPath = 'sampling.mirostat.target';
  setPath(request, path, 5, 'mirostat_target');
  expect(request.sampling.mirostat).toEqual({ target: 5 });
  expect(request.origins['sampling.mirostat.target']).toBe('mirostat_target');
});

test('typos and paths into open records are not neutral paths', () => {
  // @ts-expect-error a typo
  const typo: NeutralPath = 'sampling.topk';
  // @ts-expect-error metadata is an open record: its keys are the caller's, not paths
  const intoRecord: NeutralPath = 'metadata.team';
  // @ts-expect-error bookkeeping is not a path
  const bookkeeping: NeutralPath = 'origins';
  expect([typo, intoRecord, bookkeeping]).toHaveLength(3);
});

describe('the compiler, on this file', () => {
  const file = fileURLToPath(import.meta.url);
  const source = readFileSync(file, 'utf8');
  const configFile = ts.findConfigFile(dirname(file), ts.sys.fileExists, 'tsconfig.json');
  if (!configFile) throw new Error('no tsconfig.json above this file');
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${configFile}`);
  const { options } = config;

  /** The lines (1-based) that follow a line starting with the expect-error directive. */
  const directive = '// @ts-expect-error';
  const lines = source.split('\n');
  const marked = lines.flatMap((line, index) => (line.trimStart().startsWith(directive) ? [index + 2] : []));

  /** This file's text as the compiler sees it; every other file is read once. */
  let text = source;
  const host = ts.createCompilerHost(options);
  const read = new Map<string, ts.SourceFile | undefined>();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, languageVersion, ...rest) => {
    if (name === file) return ts.createSourceFile(name, text, languageVersion);
    if (!read.has(name)) read.set(name, getSourceFile(name, languageVersion, ...rest));
    return read.get(name);
  };
  let program: ts.Program | undefined;

  /** This file's diagnostics, as "line: TScode message" (another file's: "path:line: ..."), when its text is `withText`. */
  function diagnose(withText: string): string[] {
    text = withText;
    program = ts.createProgram({ rootNames: [file], options, host, oldProgram: program });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where =
        diagnostic.file && diagnostic.start !== undefined
          ? `${diagnostic.file.fileName === file ? '' : `${diagnostic.file.fileName}:`}${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}`
          : '(no file)';
      return `${where}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    });
  }

  test('finds the marked lines', () => {
    expect(marked).toHaveLength(3);
  });

  test('type-checks it without a diagnostic: every marked line is still an error (no unused directive), nothing else is', () => {
    expect(diagnose(source)).toEqual([]);
  }, 60000);

  test('without the directives, each marked line is an error for its stated reason: the string is not a NeutralPath', () => {
    const unmarked = lines
      .map((line) => (line.trimStart().startsWith(directive) ? line.replace(directive, '// (expected error)') : line))
      .join('\n');
    const diagnostics = diagnose(unmarked);
    expect(diagnostics.map((line) => Number(line.split(':', 1)[0]))).toEqual(marked);
    for (const line of diagnostics) expect(line).toMatch(/: TS\d+ Type '"[^"]+"' is not assignable to type 'NeutralPath'/);
  }, 60000);
});
