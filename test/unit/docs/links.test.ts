/** Every link of the README and docs/ to a file of the repository resolves, and so does its #anchor (GitHub's heading ids). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const documents = ['README.md', ...readdirSync(path.join(root, 'docs')).map((name) => `docs/${name}`)].filter((file) =>
  file.endsWith('.md'),
);

/** GitHub's id for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading)));
}

test.each(documents)('%s: every local link and anchor resolves', (file) => {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:)/.test(target)) continue;
    const [linked, anchor] = target.split('#');
    const resolved = linked === '' ? file : path.normalize(path.join(path.dirname(file), linked));
    if (!existsSync(path.join(root, resolved))) broken.push(target);
    else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(target);
  }
  expect(broken).toEqual([]);
});
