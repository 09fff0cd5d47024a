/** The package's main export: what apps import (package.json `exports` points at the built copy of src/index.ts). */
import { readFileSync } from 'node:fs';
import * as api from '../../src/index.js';

test('exports the public API', () => {
  expect(Object.keys(api).sort()).toEqual(['ConfigError', 'ProxyError', 'createDialectProxy', 'loadConfig', 'startServer', 'translate']);
});

test('package.json points at the built entry, its types and the CLI', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    exports: { '.': { import: string; types: string } };
    bin: Record<string, string>;
    type: string;
  };
  expect(pkg.type).toBe('module');
  expect(pkg.exports['.']).toEqual({ types: './dist/src/index.d.ts', import: './dist/src/index.js' });
  expect(pkg.bin['dialect-proxy']).toBe('dist/src/cli.js');
});
