/**
 * The tool-call grammar on the real worker: whatever the model samples under it
 * is a Hermes tool call whose arguments follow the tool's schema.
 */
import { toolCallGrammar } from '../../../src/pipeline/plan/emulate/tool-call-grammar.js';
import { LlamaWorkerHost } from '../../../adapters/llama-cpp/worker-host.js';
import { baseRequest, describeShared, storiesPath } from '../llama-cpp/helpers.js';
import { weather } from './weather-tool.js';

const search = { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } };
const freeForm = { name: 'anything', parameters: { type: 'object' } };

function callsIn(text: string): { name: string; arguments: Record<string, unknown> }[] {
  const calls = [...text.matchAll(/<tool_call>\n([\s\S]*?)\n<\/tool_call>/g)].map(
    (match) => JSON.parse(match[1]) as { name: string; arguments: Record<string, unknown> },
  );
  expect(text.replace(/<tool_call>\n[\s\S]*?\n<\/tool_call>/g, '').replace(/\n/g, '')).toBe('');
  return calls;
}

function expectWeatherArguments(args: Record<string, unknown>): void {
  expect(Object.keys(args).every((key) => key in weather.parameters.properties)).toBe(true);
  expect(typeof args.city).toBe('string');
  expect(['celsius', 'fahrenheit']).toContain(args.unit);
  if ('days' in args) expect(Number.isInteger(args.days)).toBe(true);
  if ('hourly' in args) expect(typeof args.hourly).toBe('boolean');
  if ('note' in args) expect(args.note === null || typeof args.note === 'string').toBe(true);
  if ('places' in args) {
    for (const place of args.places as Record<string, unknown>[]) {
      expect(Object.keys(place).sort()).toEqual(['lat', 'lon']);
      expect(typeof place.lat).toBe('number');
    }
  }
}

describeShared('toolCallGrammar on the worker (stories260K, sampled)', () => {
  const host = new LlamaWorkerHost({ model: storiesPath, parallel: 4, showProgress: false });
  beforeAll(() => host.start(), 30_000);
  afterAll(() => host.close());

  /** The text sampled under the grammar, cut after its last complete call when max_tokens ended it. */
  async function sample(grammar: string, seed: number): Promise<string> {
    let text = '';
    for await (const event of host.generate({
      ...baseRequest,
      prompt: 'Call a tool:',
      grammar: { kind: 'gbnf', text: grammar },
      temperature: 1.2,
      seed,
      maxTokens: 800,
    })) {
      if (event.type === 'token') text += event.text;
      if (event.type === 'end' && event.finishReason === 'length') {
        const end = text.lastIndexOf('</tool_call>');
        text = end < 0 ? '' : text.slice(0, end + '</tool_call>'.length);
      }
    }
    return text;
  }

  /**
   * One seed at a time: sequences decoded in one batch get slightly different logits depending on
   * how the batch was made up (the machine's load decides that), so samples taken together are
   * not reproducible, and a long one can run out of tokens; taken alone, each seed gives one text.
   */
  async function samples(grammar: string, seeds: number[]): Promise<string[]> {
    const texts: string[] = [];
    for (const seed of seeds) texts.push(await sample(grammar, seed));
    return texts;
  }

  it('a named tool: exactly one call, its arguments following the schema', async () => {
    const grammar = toolCallGrammar([weather], { single: true });
    const texts = await samples(grammar, [1, 2, 3, 4]);
    for (const text of texts) {
      const calls = callsIn(text);
      expect(calls).toHaveLength(1);
      expect(calls[0].name).toBe('get_weather');
      expectWeatherArguments(calls[0].arguments);
    }
  }, 60_000);

  it('required: any of the tools, each call following its own schema; a free-form tool takes any object', async () => {
    const grammar = toolCallGrammar([weather, search, freeForm], { single: false });
    const texts = await samples(grammar, [5, 6, 7, 8]);
    const calls = texts.flatMap(callsIn);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const call of calls) {
      expect(['get_weather', 'search', 'anything']).toContain(call.name);
      if (call.name === 'get_weather') expectWeatherArguments(call.arguments);
      if (call.name === 'search') {
        expect(Object.keys(call.arguments).every((key) => key === 'query' || key === 'limit')).toBe(true);
        if ('limit' in call.arguments) expect(Number.isInteger(call.arguments.limit)).toBe(true);
      }
      if (call.name === 'anything') expect(typeof call.arguments).toBe('object');
    }
  }, 60_000);
});
