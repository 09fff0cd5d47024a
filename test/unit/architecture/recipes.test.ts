/**
 * The recipes of docs/architecture.md hold: a backend kind is named only in its folder and the kind
 * registry; a caller dialect only in its folder, the dialect registry, its OpenAPI document's entry and
 * its field samples. "Named" is what a list of kinds or dialects is made of: a string (`'vllm'`, a type
 * `'vllm'`), a property name (`{ vllm: ... }`), an import of the folder (`adapters/vllm/...`). Comments
 * are not read, nor a vendor's namespace (src/model/vendor-data.ts: `vendor.anthropic`), which names a
 * vendor whose data the dialects and kinds that know it read, not a kind. Every other place is an exception below, with its reason, and named in the Recipes
 * section; a new hand list that names the kinds or the dialects fails here, and so would a new kind or
 * dialect that had to be added to one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { BACKEND_KINDS } from '../../../adapters/registry.js';
import { DIALECTS } from '../../../src/dialects/registry.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where a recipe puts a kind's or a dialect's name: its own files. A name shared by a kind and a dialect (gemini) is at home in either's. */
const homes = new Map<string, string[]>();
const addHome = (name: string, ...places: string[]) => homes.set(name, [...(homes.get(name) ?? []), ...places]);
for (const { name } of BACKEND_KINDS) addHome(name, `adapters/${name}/`, 'adapters/registry.ts');
for (const { name } of DIALECTS) {
  addHome(
    name,
    `src/dialects/${name}/`,
    'src/dialects/registry.ts',
    // Its document and its entry in OPENAPI_DOCUMENTS.
    'src/validation/load-openapi-document.ts',
    // Its base body and a sample for each field (typed by its field union).
    'src/commands/fields/field-samples.ts',
  );
}

/**
 * The places outside a recipe that name a kind or a dialect, and why each is not a list a new one joins.
 * Each is named in docs/architecture.md's Recipes section.
 */
const EXCEPTIONS: readonly { file: string; names: readonly string[]; why: string }[] = [
  {
    file: 'src/index.ts',
    names: ['llama-cpp', 'llama-server', 'anthropic', 'gemini'],
    why: "the settings types' published names, kept as aliases of BackendSettingsByKind; a new kind has only that",
  },
  {
    file: 'src/dialects/openai-responses/index.ts',
    names: ['openai-chat'],
    why: "the Responses API answers errors in OpenAI's shape: the chat dialect's error body",
  },
  {
    file: 'src/dialects/openai-responses/request-fields.ts',
    names: ['openai-chat'],
    why: "a Responses tool's function is chat's: the chat dialect's tool parser",
  },
  {
    file: 'src/http/inspector-api.ts',
    names: ['openai-chat'],
    why: "the inspector's own API answers errors in OpenAI's chat shape",
  },
  {
    file: 'src/commands/migrate/chat-to-responses.ts',
    names: ['openai-chat'],
    why: 'the Chat/Responses migration (`translate --as`) converts between those two tables',
  },
  {
    file: 'src/commands/migrate/responses-to-chat.ts',
    names: ['openai-responses'],
    why: 'the Chat/Responses migration (`translate --as`) converts between those two tables',
  },
  {
    file: 'src/commands/migrate/through-kind.ts',
    names: ['openai', 'anthropic', 'gemini'],
    why: '`translate --as` writes each other API through the kind that speaks it',
  },
  {
    file: 'src/commands/translate-command.ts',
    names: ['anthropic', 'gemini'],
    why: "`translate --as`: the APIs it converts between, by the option's names",
  },
];

/** Every .ts file under src/ and adapters/, as a path from the root. */
function sourceFiles(folder: string, found: string[] = []): string[] {
  for (const name of readdirSync(path.join(root, folder))) {
    const file = `${folder}/${name}`;
    if (statSync(path.join(root, file)).isDirectory()) sourceFiles(file, found);
    else if (file.endsWith('.ts')) found.push(file);
  }
  return found;
}

/** The vendors with data of their own (the members of `Vendors` in src/model/vendor-data.ts). */
const vendors = new Set<string>();
/** The generic types whose parameter is a vendor's name (`StreamSerializer<'anthropic'>`). */
const vendorGenerics = new Set<string>();

interface Mention {
  file: string;
  name: string;
  line: number;
  /** Named by an import of its folder. */
  imported: boolean;
}

/** The names of kinds and dialects a file says: in strings, property names and the folders it imports. */
function mentionsIn(file: string, text: string, names: ReadonlySet<string>): Mention[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Mention[] = [];
  const mention = (name: string, node: ts.Node, imported = false) =>
    found.push({ file, name, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, imported });
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteralLike(node) || ts.isIdentifier(node)) && vendors.has(node.text) && namesVendor(node, source)) {
      // A vendor's namespace, not a kind (vendors above).
    } else if (ts.isStringLiteralLike(node) && isModuleSpecifier(node)) {
      // `adapters/<kind>/...`, `src/dialects/<dialect>/...`, from wherever the file is.
      const target = path.posix.join(path.posix.dirname(file), node.text);
      const folder = /^(?:adapters|src\/dialects)\/([^/]+)\//.exec(target)?.[1];
      if (folder !== undefined && names.has(folder)) mention(folder, node, true);
    } else if (ts.isStringLiteralLike(node)) {
      // A `form:` names a family of wire bodies (src/model/wire-form.ts), which dialects and kinds share by name.
      const isForm =
        ts.isPropertyAssignment(node.parent) && node.parent.initializer === node && node.parent.name.getText(source) === 'form';
      if (names.has(node.text) && !isForm) mention(node.text, node);
    } else if (ts.isIdentifier(node) && isPropertyName(node) && names.has(node.text)) {
      mention(node.text, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Where a vendor's name is its namespace: a key under `vendor` (or in `vendors`, a serializer's list), a
 * member of `Vendors`, a `dropVendorKey(request, 'anthropic', ...)` argument, a vendor generic's argument.
 */
function namesVendor(node: ts.Node, source: ts.SourceFile): boolean {
  const { parent } = node;
  if (ts.isCallExpression(parent) && /VendorKey$/.test(parent.expression.getText(source))) return true;
  if (ts.isLiteralTypeNode(parent)) {
    const generic = parent.parent;
    if (ts.isTypeReferenceNode(generic) && vendorGenerics.has(generic.typeName.getText(source))) return true;
    if (ts.isExpressionWithTypeArguments(generic) && vendorGenerics.has(generic.expression.getText(source))) return true;
  }
  for (let at: ts.Node | undefined = parent; at && !ts.isSourceFile(at); at = at.parent) {
    if (ts.isInterfaceDeclaration(at) && at.name.text === 'Vendors') return true;
    if (isNamedMember(at) && at.name !== node && ['vendor', 'vendors'].includes(at.name.getText(source))) return true;
    // `message.vendor = { anthropic: ... }`
    if (ts.isBinaryExpression(at) && at.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      if (ts.isPropertyAccessExpression(at.left) && at.left.name.text === 'vendor') return true;
    }
  }
  return false;
}

function isNamedMember(
  node: ts.Node,
): node is ts.PropertyAssignment | ts.PropertySignature | ts.PropertyDeclaration | ts.ParameterDeclaration {
  return ts.isPropertyAssignment(node) || ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node);
}

function isModuleSpecifier(node: ts.StringLiteralLike): boolean {
  const { parent } = node;
  if ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) return true;
  if (ts.isLiteralTypeNode(parent) && ts.isImportTypeNode(parent.parent)) return true;
  return ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword;
}

/** `{ vllm: ... }` and `interface { vllm?: ... }`: a property named like a kind or a dialect (a string-named one is a string above). */
function isPropertyName(node: ts.Identifier): boolean {
  const { parent } = node;
  return (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isPropertyDeclaration(parent)) && parent.name === node;
}

const names = new Set(homes.keys());
for (const file of [...sourceFiles('src'), ...sourceFiles('adapters')]) {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const declare = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'Vendors' && file === 'src/model/vendor-data.ts')
      for (const member of node.members) if (member.name) vendors.add(member.name.getText(source));
    const generic = ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node);
    if (generic && node.typeParameters?.some((parameter) => parameter.constraint?.getText(source) === 'VendorName'))
      vendorGenerics.add(node.name.text);
    ts.forEachChild(node, declare);
  };
  declare(source);
}
const mentions = [...sourceFiles('src'), ...sourceFiles('adapters')].flatMap((file) =>
  mentionsIn(file, readFileSync(path.join(root, file), 'utf8'), names),
);
/** Kinds share the OpenAI wire's readers and builders, and only those (.dependency-cruiser.cjs, kinds-share-only-openai-wire). */
const sharedWire = ({ file, name, imported }: Mention) => imported && name === 'openai' && file.startsWith('adapters/');
const atHome = (found: Mention) =>
  sharedWire(found) || homes.get(found.name)!.some((home) => (home.endsWith('/') ? found.file.startsWith(home) : found.file === home));
const excepted = ({ file, name }: Mention) => EXCEPTIONS.some((exception) => exception.file === file && exception.names.includes(name));

describe('the recipes of docs/architecture.md', () => {
  test('each kind is a folder adapters/<kind>/ with its kind.ts; each dialect a folder src/dialects/<dialect>/', () => {
    const missing = [
      ...BACKEND_KINDS.map(({ name }) => `adapters/${name}/kind.ts`),
      ...DIALECTS.map(({ name }) => `src/dialects/${name}/index.ts`),
    ].filter((file) => !sourceFiles(path.posix.dirname(file)).includes(file));
    expect(missing).toEqual([]);
  });

  test('outside its recipe, no file names a kind or a dialect (but the exceptions)', () => {
    const strays = mentions.filter((found) => !atHome(found) && !excepted(found)).map(({ file, name, line }) => `${file}:${line} ${name}`);
    expect(strays).toEqual([]);
  });

  test("the registries hand on nothing of a kind's or a dialect's folder but the kind and the dialect", () => {
    // A type or helper re-exported here is what src/ would then list by hand (the settings types once were).
    const reexported = ['adapters/registry.ts', 'src/dialects/registry.ts'].flatMap((file) => {
      const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
      return source.statements
        .filter(ts.isExportDeclaration)
        .map((statement) => (statement.moduleSpecifier as ts.StringLiteral | undefined)?.text ?? '')
        .filter((specifier) => /^\.\/[^/]+\//.test(specifier))
        .map((specifier) => `${file}: ${specifier}`);
    });
    expect(reexported).toEqual([]);
  });

  test('every exception is still one (it names what it is excepted for)', () => {
    const stale = EXCEPTIONS.flatMap(({ file, names: excused }) =>
      excused.filter((name) => !mentions.some((found) => found.file === file && found.name === name)).map((name) => `${file} ${name}`),
    );
    expect(stale).toEqual([]);
  });

  test('the Recipes section of docs/architecture.md names every exception', () => {
    const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    const start = doc.indexOf('\n## Recipes\n');
    const end = doc.indexOf('\n## ', start + 1);
    expect(start).toBeGreaterThan(0);
    const recipes = doc.slice(start, end < 0 ? undefined : end);
    expect(EXCEPTIONS.map(({ file }) => file).filter((file) => !recipes.includes(`\`${file}\``))).toEqual([]);
  });

  test('the scan sees what a hand list is made of, and not comments, wire forms or vendor namespaces', () => {
    const text = [
      "import { vllmKind } from '../../adapters/vllm/kind.js';",
      "const titles = { gemini: 'Google', 'openai-chat': 'OpenAI' }; // llama-cpp",
      "type Named = 'anthropic' | 'fireworks-completions';",
      "const wire = { form: 'openai', turns: 'messages' };",
      "request.vendor = { anthropic: { betas: [] } }; dropVendorKey(request, 'fireworks', 'rawOutput');",
      'const kinds = { fireworks: 1 };',
    ].join('\n');
    const found = mentionsIn('src/commands/probe.ts', text, names).map(({ name, line }) => `${line} ${name}`);
    expect(found).toEqual(['1 vllm', '2 gemini', '2 openai-chat', '3 anthropic', '3 fireworks-completions', '6 fireworks']);
  });
});
