/**
 * dialects/openai-responses/tool-names.ts: the names backends see for a namespace's tools. Every
 * flattened name is one OpenAI and Anthropic accept (`^[a-zA-Z0-9_-]{1,64}$`), no two tools share
 * one, and each restores to the namespace and name the caller gave.
 */
import { ToolNames } from '../../../../src/dialects/openai-responses/tool-names.js';

const BACKEND_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const namespace = (name: string, ...tools: string[]) => ({
  type: 'namespace',
  name,
  description: '',
  tools: tools.map((tool) => ({ type: 'function', name: tool })),
});

describe('ToolNames', () => {
  test("'<namespace>__<name>', restored to the pair; a name not flattened is the caller's own", () => {
    const names = ToolNames.of([{ type: 'function', name: 'f' }, namespace('crm', 'find', 'update')]);
    expect(names.flat('crm', 'find')).toBe('crm__find');
    expect(names.restore('crm__update')).toEqual({ namespace: 'crm', name: 'update' });
    expect(names.restore('f')).toEqual({ name: 'f' });
  });

  test('a name taken by a top-level tool, or another namespace, gets a hashed name of its own', () => {
    // 'a_' and 'a.' both make 'a___b' ('.' becomes '_'): the second one gets the hashed name.
    const tools = [{ type: 'function', name: 'a__b' }, namespace('a', 'b'), namespace('a_', 'b'), namespace('a.', 'b')];
    const names = ToolNames.of(tools);
    const flat = [names.flat('a', 'b'), names.flat('a_', 'b'), names.flat('a.', 'b')];
    expect(flat[1]).toBe('a___b');
    expect(new Set(['a__b', ...flat]).size).toBe(4);
    for (const name of flat) expect(name).toMatch(BACKEND_NAME);
    expect(flat.map((name) => names.restore(name))).toEqual([
      { namespace: 'a', name: 'b' },
      { namespace: 'a_', name: 'b' },
      { namespace: 'a.', name: 'b' },
    ]);
  });

  test('characters a backend refuses become _, and a long pair is cut to 64 with a hash', () => {
    const long = 'x'.repeat(70);
    const names = ToolNames.of([namespace('mcp.server/v1', 'read file'), namespace(long, 'go'), namespace(long, 'stop')]);
    expect(names.flat('mcp.server/v1', 'read file')).toBe('mcp_server_v1__read_file');
    const [go, stop] = [names.flat(long, 'go'), names.flat(long, 'stop')];
    expect(go).toMatch(BACKEND_NAME);
    expect(go).not.toBe(stop);
    expect(names.restore(stop)).toEqual({ namespace: long, name: 'stop' });
  });

  test('a pair the request no longer declares (a call from an earlier turn) is flattened the same way', () => {
    const long = 'y'.repeat(70);
    expect(ToolNames.of([]).flat('crm', 'find')).toBe('crm__find');
    expect(ToolNames.of([]).flat(long, 'go')).toBe(ToolNames.of([namespace(long, 'go')]).flat(long, 'go'));
  });
});
