/**
 * Guard: every top-level request property of the reference specs and the Fireworks seed in ../shared has a row
 * in its field table, and back (skipped when that folder is absent). Our own documents: request-fields-guard.test.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { chatFields } from '../../../../src/dialects/openai-chat/request-fields.js';
import { completionsFields } from '../../../../src/dialects/fireworks-completions/request-fields.js';
import { describeWithShared } from '../../../helpers/shared.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const specsDir = resolve(repoRoot, '../shared/specs');
const seedFile = resolve(repoRoot, '../shared/seeds/fireworks-create-completion.md');
const describeShared = describeWithShared(specsDir, seedFile);

type Node = Record<string, unknown>;

const missing = (table: object, fields: readonly string[]): string[] => fields.filter((field) => !Object.hasOwn(table, field));

/** Property names of a schema, following $ref and allOf (OpenAI's newest spec nests both). */
function propertyNames(document: Node, schema: unknown, seen = new Set<string>()): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Node;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return [];
    seen.add(node.$ref);
    return propertyNames(
      document,
      node.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, key) => (at as Node)[key], document),
      seen,
    );
  }
  const parts = ((node.allOf as unknown[] | undefined) ?? []).flatMap((part) => propertyNames(document, part, seen));
  return [...new Set([...Object.keys((node.properties as Node | undefined) ?? {}), ...parts])];
}

function specFields(file: string, schema: string): string[] {
  const document = parse(readFileSync(join(specsDir, file), 'utf8')) as Node;
  const schemas = (document.components as Node).schemas as Node;
  if (!schemas[schema]) throw new Error(`${file}: no ${schema}`);
  return propertyNames(document, schemas[schema]);
}

/** Top-level request fields of the Fireworks seed (the seed wins over the reference spec). */
function seedFields(): string[] {
  const markdown = readFileSync(seedFile, 'utf8');
  const request = markdown.slice(markdown.indexOf('## Request body'), markdown.indexOf('## Response'));
  return request.split('\n').flatMap((line) => /^ {2}- `(\w+)`/.exec(line)?.[1] ?? []);
}

describeShared('reference specs in ../shared', () => {
  it('OpenAI 2.3.0 CreateChatCompletionRequest', () => {
    expect(missing(chatFields, specFields('openai-openapi.yaml', 'CreateChatCompletionRequest'))).toEqual([]);
  });
  it("OpenAI's newest CreateChatCompletionRequest (with CreateModelResponseProperties)", () => {
    expect(missing(chatFields, specFields('openai-openapi-latest.yaml', 'CreateChatCompletionRequest'))).toEqual([]);
  });
  it("Fireworks' chat extensions (ChatCompletionRequest)", () => {
    expect(missing(chatFields, specFields('fireworks-ai-text-completion-openapi.yml', 'ChatCompletionRequest'))).toEqual([]);
  });
  it('Fireworks CompletionRequest', () => {
    expect(missing(completionsFields, specFields('fireworks-ai-text-completion-openapi.yml', 'CompletionRequest'))).toEqual([]);
  });
  it('the Fireworks completions seed, both ways', () => {
    const seed = seedFields();
    expect(seed).toContain('prompt');
    expect(missing(completionsFields, seed)).toEqual([]);
    expect(Object.keys(completionsFields).filter((field) => !seed.includes(field))).toEqual([]);
  });
});
