/**
 * docs/architecture.md is the map of the code: every path it names exists, every file it names by
 * its bare name is somewhere in the tree, and every symbol it places in a file is in that file.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
const quoted = [...doc.matchAll(/`([^`\n]+)`/g)].map(([, text]) => text);

/** Every file under the code's folders, by its bare name. */
function filesUnder(folder: string, found = new Set<string>()): Set<string> {
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) filesUnder(file, found);
    else found.add(name);
  }
  return found;
}
const names = new Set(
  ['src', 'adapters', 'test', 'bench', 'config', 'scripts'].flatMap((folder) => [...filesUnder(path.join(root, folder))]),
);

describe('docs/architecture.md', () => {
  test('every path it names exists (patterns such as adapters/<kind>/ aside)', () => {
    const paths = quoted.filter((text) => /^(src|adapters|config|test|bench|docs|scripts)(\/|$)/.test(text) && !/[<*{ ]/.test(text));
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });

  test('every file it names by its bare name is in the tree', () => {
    const bare = quoted.filter((text) => /^[\w.-]+\.(ts|js|mjs|cjs|yaml|json|md)$/.test(text));
    expect(bare.length).toBeGreaterThan(10);
    expect(bare.filter((name) => !names.has(name) && !existsSync(path.join(root, name)))).toEqual([]);
  });

  test('every symbol it places in a file, as `symbol` (`file`), is in that file', () => {
    const placed = [...doc.matchAll(/`([A-Za-z_][\w.]*)(?:\([^`]*\))?`\s*\(`((?:src|adapters)\/[^`]+\.ts)`/g)].map(([, symbol, file]) => ({
      symbol: symbol.split('.').pop() as string,
      file,
    }));
    expect(placed.length).toBeGreaterThanOrEqual(5);
    expect(placed.filter(({ symbol, file }) => !readFileSync(path.join(root, file), 'utf8').includes(symbol))).toEqual([]);
  });

  test('it counts the caller dialects the registry lists', () => {
    const { length } = [...readFileSync(path.join(root, 'src/dialects/registry.ts'), 'utf8').matchAll(/^\s+\w+Dialect,$/gm)];
    const words = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six'];
    expect(doc).toMatch(new RegExp(`^${words[length]} caller dialects`, 'm'));
  });
});
