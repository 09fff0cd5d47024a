// Reads the reference specs and seeds in ../shared (skipped when that folder is absent).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { listRequestFields } from '../../helpers/list-request-fields.js';
import { loadOpenapiDocument } from '../../../src/validation/load-openapi-document.js';
import { describeWithShared } from '../../helpers/shared.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const sharedDir = resolve(repoRoot, '../shared');
const describeShared = describeWithShared(sharedDir);

type Node = Record<string, unknown>;

/** Property names of a component schema, following $ref and allOf (OpenAI's newest spec nests both). */
function propertyNames(document: Node, schema: unknown, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (!schema || typeof schema !== 'object') return names;
  const node = schema as Node;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return names;
    seen.add(node.$ref);
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Node)[key], document);
    return propertyNames(document, target, seen);
  }
  for (const name of Object.keys((node.properties as Node | undefined) ?? {})) names.add(name);
  for (const part of (node.allOf as unknown[] | undefined) ?? []) for (const name of propertyNames(document, part, seen)) names.add(name);
  return names;
}

const specs = new Map<string, Node>();

/** A spec from shared/specs, parsed once for the file (the newest OpenAI spec is 3 MB). */
function readSpec(file: string): Node {
  let document = specs.get(file);
  if (!document) {
    document = parse(readFileSync(join(sharedDir, 'specs', file), 'utf8')) as Node;
    specs.set(file, document);
  }
  return document;
}

function requestProperties(file: string, schemaName: string): string[] {
  const document = readSpec(file);
  const schemas = (document.components as Node).schemas as Node;
  expect(schemas[schemaName]).toBeDefined();
  return [...propertyNames(document, schemas[schemaName])];
}

/** Top-level request fields of the Fireworks seed, and the fields listed under `stream_options`. */
function seedFields(): { top: string[]; streamOptions: string[] } {
  const markdown = readFileSync(join(sharedDir, 'seeds', 'fireworks-create-completion.md'), 'utf8');
  const request = markdown.slice(markdown.indexOf('## Request body'), markdown.indexOf('## Response'));
  const top: string[] = [];
  const streamOptions: string[] = [];
  let inStreamOptions = false;
  for (const line of request.split('\n')) {
    const field = /^ {2}- `(\w+)`/.exec(line);
    if (field) {
      top.push(field[1]);
      inStreamOptions = field[1] === 'stream_options';
      continue;
    }
    const nested = /^ {4}- `(\w+)`/.exec(line);
    if (nested && inStreamOptions) streamOptions.push(nested[1]);
  }
  return { top, streamOptions };
}

function missingFrom(ours: readonly string[], theirs: readonly string[]): string[] {
  return theirs.filter((name) => !ours.includes(name));
}

function streamOptionFields(endpoint: 'chat' | 'text'): string[] {
  const document = loadOpenapiDocument(endpoint);
  const schemas = (document.components as Node).schemas as Node;
  const name = endpoint === 'chat' ? 'ChatCompletionStreamOptions' : 'StreamOptions';
  return Object.keys(((schemas[name] as Node).properties as Node) ?? {});
}

describeShared('our documents cover the reference specs', () => {
  // Parsed once for the file: the newest OpenAI spec is 3 MB.
  let openai230: string[];
  let openaiLatest: string[];
  let openaiResponses: string[];
  let fireworksChat: string[];
  let fireworksText: string[];
  let seed: { top: string[]; streamOptions: string[] };

  beforeAll(() => {
    openai230 = requestProperties('openai-openapi.yaml', 'CreateChatCompletionRequest');
    openaiLatest = requestProperties('openai-openapi-latest.yaml', 'CreateChatCompletionRequest');
    openaiResponses = requestProperties('openai-openapi-latest.yaml', 'CreateResponse');
    const fireworks = parse(readFileSync(join(sharedDir, 'specs', 'fireworks-ai-text-completion-openapi.yml'), 'utf8')) as Node;
    const schemas = (fireworks.components as Node).schemas as Node;
    fireworksChat = [...propertyNames(fireworks, schemas.ChatCompletionRequest)];
    fireworksText = [...propertyNames(fireworks, schemas.CompletionRequest)];
    seed = seedFields();
  });

  it('the chat document has every OpenAI 2.3.0 request field (the seed)', () => {
    expect(openai230.length).toBeGreaterThanOrEqual(30);
    expect(missingFrom(listRequestFields('chat'), openai230)).toEqual([]);
  });

  it("the chat document has every field of OpenAI's newest request schema", () => {
    expect(openaiLatest).toEqual(expect.arrayContaining(['prompt_cache_key', 'safety_identifier', 'verbosity', 'web_search_options']));
    expect(missingFrom(listRequestFields('chat'), openaiLatest)).toEqual([]);
  });

  it("the chat document has every field of Fireworks' chat request schema", () => {
    expect(missingFrom(listRequestFields('chat'), fireworksChat)).toEqual([]);
  });

  it('the chat document invents nothing: each field comes from one of those specs (or the completions seed)', () => {
    const known = new Set([...openai230, ...openaiLatest, ...fireworksChat, ...seed.top]);
    expect(listRequestFields('chat').filter((name) => !known.has(name))).toEqual([]);
  });

  it('the completions document has every field of the Fireworks seed and spec, and nothing else', () => {
    expect(seed.top.length).toBeGreaterThanOrEqual(40);
    expect(missingFrom(listRequestFields('text'), seed.top)).toEqual([]);
    expect(missingFrom(listRequestFields('text'), fireworksText)).toEqual([]);
    expect(missingFrom([...seed.top, ...fireworksText], listRequestFields('text'))).toEqual([]);
  });

  it("the responses document has every field of OpenAI's newest CreateResponse, and nothing else", () => {
    expect(openaiResponses).toEqual(
      expect.arrayContaining(['model', 'input', 'instructions', 'tools', 'reasoning', 'text', 'conversation', 'context_management']),
    );
    expect(openaiResponses.length).toBeGreaterThanOrEqual(30);
    expect(missingFrom(listRequestFields('responses'), openaiResponses)).toEqual([]);
    // Beyond the spec: what real clients send on every request (Codex CLI's client_metadata).
    expect(missingFrom(openaiResponses, listRequestFields('responses'))).toEqual(['client_metadata']);
  });

  it("both documents' stream_options carry the seed's StreamOptions fields", () => {
    expect(seed.streamOptions).toEqual(['include_usage', 'include_internal_content', 'buffer_tokens', 'buffer_ms', 'buffer_mode']);
    expect(missingFrom(streamOptionFields('text'), seed.streamOptions)).toEqual([]);
    expect(missingFrom(streamOptionFields('chat'), seed.streamOptions)).toEqual([]);
  });
});

/**
 * No Anthropic spec in ../shared: the reference for the Messages document is the types of
 * @anthropic-ai/sdk (a devDependency, pinned to the version the document was written from).
 */
const sdkResources = resolve(repoRoot, 'node_modules', '@anthropic-ai', 'sdk', 'resources');

/** The fields of an SDK params interface, split by the SDK's own "Body param:" / "Header param:" notes. */
function sdkParams(file: string, name: string): { body: string[]; header: string[] } {
  const source = readFileSync(join(sdkResources, file), 'utf8');
  const start = source.indexOf(`export interface ${name} {`);
  expect(start).toBeGreaterThanOrEqual(0);
  const text = source.slice(start, source.indexOf('\n}\n', start));
  const body: string[] = [];
  const header: string[] = [];
  for (const match of text.matchAll(/(\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*)?^ {4}(\w+)\??:/gm)) {
    (match[1]?.includes('Header param:') ? header : body).push(match[2]);
  }
  return { body, header };
}

/** The SDK's header params, as the headers it sends them in. */
const SDK_HEADERS: Record<string, string> = {
  user_profile_id: 'anthropic-user-profile-id',
  workspace_id: 'anthropic-workspace-id',
  betas: 'anthropic-beta',
};
/** Ours but not the newest SDK's: API version 2023-06-01's sampling fields (SDK 0.x), deprecated. */
const DEPRECATED_SAMPLING = ['temperature', 'top_p', 'top_k'];
/** The beta body fields our document declares (the ones real clients send). */
const BETA_FIELDS = ['context_management', 'mcp_servers', 'output_format'];

function messagesOperation(path: string): { properties: string[]; headers: string[] } {
  const document = loadOpenapiDocument('messages');
  const operation = ((document.paths as Node)[path] as Node).post as Node;
  const ref = (((operation.requestBody as Node).content as Node)['application/json'] as Node).schema as Node;
  const schemaName = String(ref.$ref).split('/').pop() as string;
  const schema = ((document.components as Node).schemas as Node)[schemaName] as Node;
  const parameters = (document.components as Node).parameters as Node;
  const headers = (operation.parameters as Node[])
    .map((parameter) => parameters[String(parameter.$ref).split('/').pop() as string] as Node)
    .filter((parameter) => parameter.in === 'header')
    .map((parameter) => String(parameter.name));
  return { properties: Object.keys(schema.properties as Node), headers };
}

describe("the messages document covers the newest Anthropic SDK's request types", () => {
  it.each([
    ['/v1/messages', 'MessageCreateParamsBase'],
    ['/v1/messages/count_tokens', 'MessageCountTokensParams'],
  ])('%s has every body field of %s, and only those, the deprecated sampling fields and our beta fields', (path, name) => {
    const sdk = sdkParams('messages/messages.d.ts', name);
    const beta = sdkParams('beta/messages/messages.d.ts', name);
    const ours = messagesOperation(path);
    expect(sdk.body).toEqual(expect.arrayContaining(['model', 'messages', 'system', 'tools', 'thinking', 'output_config']));
    expect(missingFrom(ours.properties, sdk.body)).toEqual([]);
    const extras = path === '/v1/messages' ? DEPRECATED_SAMPLING : [];
    expect(missingFrom([...sdk.body, ...extras, ...BETA_FIELDS], ours.properties)).toEqual([]);
    expect(missingFrom(beta.body, BETA_FIELDS)).toEqual([]);
  });

  it.each([
    ['/v1/messages', 'MessageCreateParamsBase'],
    ['/v1/messages/count_tokens', 'MessageCountTokensParams'],
  ])("%s declares %s's header params as headers, not body fields", (path, name) => {
    const header = [...sdkParams('messages/messages.d.ts', name).header, ...sdkParams('beta/messages/messages.d.ts', name).header];
    const ours = messagesOperation(path);
    expect(header).toEqual(expect.arrayContaining(['user_profile_id', 'workspace_id', 'betas']));
    expect(missingFrom(Object.keys(SDK_HEADERS), header)).toEqual([]);
    expect(
      missingFrom(
        ours.headers,
        [...new Set(header)].map((field) => SDK_HEADERS[field]),
      ),
    ).toEqual([]);
    expect(ours.properties.filter((field) => header.includes(field))).toEqual([]);
  });
});
