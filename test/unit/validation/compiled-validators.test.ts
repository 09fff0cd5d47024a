/**
 * The build's ahead-of-time validators (src/validation/compiled-validators.ts)
 * answer exactly as openapi-backend's, compiled now, on bodies of every field
 * with any JSON value; a document changed since the build is not served by a
 * stale one. (Needs `npm run build`, which `npm test` runs first.)
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { DocumentName } from '../../../src/validation/load-openapi-document.js';
import { listRequestFields } from '../../helpers/list-request-fields.js';
import { validation } from './load-validation.js';

const { compileBodyValidator } = await import('../../../src/validation/compile-body-validator.js');
const { loadCompiledValidator } = await import('../../../src/validation/compiled-validators.js');
const { toValidationIssues } = await import('../../../src/validation/to-validation-issues.js');
const { defaultOpenapiDir, OPENAPI_DOCUMENTS } = validation;

const minimal: Record<DocumentName, Record<string, unknown>> = {
  chat: { model: 'm', messages: [{ role: 'user', content: 'Hi' }] },
  text: { model: 'm', prompt: 'Hi' },
  responses: { model: 'm', input: 'Hi' },
  messages: { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
  gemini: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
};

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

const issues = (validate: Validate, body: unknown) =>
  validate({ requestBody: body }) ? [] : toValidationIssues((validate.errors ?? []) as never, body);

describe.each(Object.keys(OPENAPI_DOCUMENTS) as DocumentName[])('the %s document', (name) => {
  let compiled: Validate;
  let runtime: Validate;

  beforeAll(async () => {
    const loaded = await loadCompiledValidator(name);
    if (!loaded) throw new Error(`no compiled validator for ${name} matching the document: run npm run build`);
    compiled = loaded;
    runtime = await compileBodyValidator(name, defaultOpenapiDir());
  });

  test('a compiled validator and openapi-backend find the same problems, field by field, for any JSON value', () => {
    const fields = listRequestFields(name);
    fc.assert(
      fc.property(fc.constantFrom(...fields, 'not_a_field'), fc.jsonValue({ maxDepth: 3 }), (field, value) => {
        const body = { ...minimal[name], [field]: value };
        expect(issues(compiled, body)).toEqual(issues(runtime, body));
      }),
      { numRuns: 600 },
    );
  });
});

test('a document changed since the build is not served by the compiled validator', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    for (const { file } of Object.values(OPENAPI_DOCUMENTS)) copyFileSync(join(defaultOpenapiDir(), file), join(dir, file));
    expect(await loadCompiledValidator('text', dir)).toBeDefined();
    const file = join(dir, OPENAPI_DOCUMENTS.text.file);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n# changed\n`);
    expect(await loadCompiledValidator('text', dir)).toBeUndefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
