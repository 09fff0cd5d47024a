/**
 * The sealer's key: `responses.encryptionKey` when set; else a key file made once in the cache
 * folder, which every later start (and a second process) reads, so a restart keeps opening what
 * the proxy sealed; with no folder to write, a key of the process's own, said in a warning.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSealer } from '../../../src/runtime/create-sealer.js';
import { loadConfig } from '../../../src/runtime/configuration.js';

const quiet = { warn: () => undefined };

describe('createSealer', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sealer-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('with no key configured, the key file made by the first start opens what it sealed on the next', () => {
    const first = createSealer(undefined, quiet, path.join(dir, 'cache'));
    const file = path.join(dir, 'cache', 'responses-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const sealed = first.seal('reasoning', { text: 'kept' });
    const key = readFileSync(file, 'utf8');
    const restarted = createSealer(undefined, quiet, path.join(dir, 'cache'));
    expect(readFileSync(file, 'utf8')).toBe(key);
    expect(restarted.open('reasoning', sealed, 'p')).toEqual({ text: 'kept' });
  });

  test('a configured key is the same in every process; another key, or another purpose, does not open it', () => {
    const sealed = createSealer('shared-secret-0123456789', quiet, dir).seal('compaction', { summary: 's' });
    expect(createSealer('shared-secret-0123456789', quiet, dir).open('compaction', sealed, 'p')).toEqual({ summary: 's' });
    expect(() => createSealer('other-secret-0123456789', quiet, dir).open('compaction', sealed, 'p')).toThrow(/does not open/);
    expect(() => createSealer('shared-secret-0123456789', quiet, dir).open('reasoning', sealed, 'p')).toThrow(/does not open/);
  });

  test('with no folder it can write, a key of its own and a warning that says what to set', () => {
    if (process.getuid?.() === 0) {
      // root writes anywhere: a file where the folder should be stands in for a read-only one.
      const blocked = path.join(dir, 'file');
      writeFileSync(blocked, '');
      expectWarning(path.join(blocked, 'cache'));
      return;
    }
    chmodSync(dir, 0o500);
    expectWarning(path.join(dir, 'cache'));
  });
});

function expectWarning(cacheDir: string): void {
  const warnings: string[] = [];
  const sealer = createSealer(undefined, { warn: (message: string) => warnings.push(message) }, cacheDir);
  expect(sealer.open('reasoning', sealer.seal('reasoning', { text: 't' }), 'p')).toEqual({ text: 't' });
  expect(warnings.join('\n')).toMatch(/no responses.encryptionKey and no key file/);
}

describe('responses.encryptionKey in the config', () => {
  test('taken when it is a secret of at least 16 characters; refused by name when shorter', () => {
    const config = (responses: Record<string, unknown>) =>
      loadConfig({ backends: { b: { kind: 'openai', url: 'http://127.0.0.1:9/v1' } }, routes: [{ model: '*', backend: 'b' }], responses });
    expect(config({ encryptionKey: 'sixteen-chars-ok' }).responses.encryptionKey).toBe('sixteen-chars-ok');
    expect(() => config({ encryptionKey: 'short' })).toThrow(/responses.encryptionKey: must be at least 16 characters/);
  });
});
