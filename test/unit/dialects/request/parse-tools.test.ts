/** dialects/openai-chat/parse-tools.ts: tools, tool_choice, and the legacy functions/function_call. */
import { parseFunctionCall, parseFunctions, parseToolChoice, parseTools } from '../../../../src/dialects/openai-chat/parse-tools.js';
import { paramOf } from './expect-param.js';

const weather = {
  type: 'function',
  function: { name: 'weather', description: 'Weather now', parameters: { type: 'object' }, strict: true },
};
const time = { type: 'function', function: { name: 'time', strict: null } };

describe('parseTools', () => {
  it('function tools', () => {
    expect(parseTools([weather, time], undefined)).toEqual([
      { name: 'weather', description: 'Weather now', parameters: { type: 'object' }, strict: true },
      { name: 'time' },
    ]);
  });
  it('allowed_tools narrows the list, as OpenAI defines it', () => {
    const choice = { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'time' } }] } };
    expect(parseTools([weather, time], choice)).toEqual([{ name: 'time' }]);
  });
  it('custom tools: free text (the default) or a grammar', () => {
    const sql = { type: 'custom', custom: { name: 'sql', description: 'Runs SQL' } };
    const code = {
      type: 'custom',
      custom: { name: 'code', format: { type: 'grammar', grammar: { syntax: 'regex', definition: '[0-9]+' } } },
    };
    const note = { type: 'custom', custom: { name: 'note', format: { type: 'text' } } };
    expect(parseTools([weather, sql, code, note], undefined)).toEqual([
      { name: 'weather', description: 'Weather now', parameters: { type: 'object' }, strict: true },
      { name: 'sql', description: 'Runs SQL', custom: { format: { type: 'text' } } },
      { name: 'code', custom: { format: { type: 'grammar', syntax: 'regex', definition: '[0-9]+' } } },
      { name: 'note', custom: { format: { type: 'text' } } },
    ]);
  });
  it('allowed_tools may name custom tools', () => {
    const choice = { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'custom', custom: { name: 'sql' } }] } };
    expect(parseTools([weather, { type: 'custom', custom: { name: 'sql' } }], choice)).toEqual([
      { name: 'sql', custom: { format: { type: 'text' } } },
    ]);
  });
  it('tools of another type, or a custom tool without a name -> 400', () => {
    expect(paramOf(() => parseTools([weather, { type: 'mcp', mcp: {} }], undefined))).toBe('tools[1].type');
    expect(paramOf(() => parseTools([{ type: 'custom', custom: {} }], undefined))).toBe('tools[0].custom.name');
  });
  it('a function tool without a function -> 400', () => {
    expect(paramOf(() => parseTools([{ type: 'function', function: null }], undefined))).toBe('tools[0].function.name');
  });
});

describe('parseToolChoice', () => {
  it.each([
    ['none', 'none'],
    ['auto', 'auto'],
    ['required', 'required'],
    ['any', 'required'], // Fireworks' alias
    [{ type: 'function', function: { name: 'weather' } }, { name: 'weather' }],
    [{ type: 'function', name: 'weather' }, { name: 'weather' }], // Fireworks' flat form
    [{ type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [] } }, 'required'],
    [{ type: 'custom', custom: { name: 'sql' } }, { name: 'sql' }],
  ])('%p -> %p', (wire, expected) => {
    expect(parseToolChoice(wire)).toEqual(expected);
  });
  it.each([
    [{ type: 'mcp', mcp: { name: 'sql' } }, 'tool_choice.type'],
    [{ type: 'custom', custom: {} }, 'tool_choice.custom.name'],
    [{ type: 'function' }, 'tool_choice.function.name'],
    [{ type: 'allowed_tools', allowed_tools: { mode: 'sometimes', tools: [] } }, 'tool_choice.allowed_tools.mode'],
    ['maybe', 'tool_choice'],
  ])('%p -> 400', (wire, param) => {
    expect(paramOf(() => parseToolChoice(wire))).toBe(param);
  });
});

describe('legacy functions', () => {
  it('functions become tool definitions', () => {
    expect(parseFunctions([{ name: 'weather', parameters: { type: 'object' } }])).toEqual([
      { name: 'weather', parameters: { type: 'object' } },
    ]);
  });
  it.each([
    ['auto', 'auto'],
    ['none', 'none'],
    [{ name: 'weather' }, { name: 'weather' }],
  ])('function_call %p -> %p', (wire, expected) => {
    expect(parseFunctionCall(wire)).toEqual(expected);
  });
  it('function_call of another shape -> 400', () => {
    expect(paramOf(() => parseFunctionCall('required'))).toBe('function_call');
  });
});
