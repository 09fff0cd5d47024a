import type { Adapter, BackendCapabilities } from '../../../src/backend/adapter.js';
import { copy, emulate, NOTHING_RELAYED, OPENAI_CONVERSATION, unsupported, type FieldSupport } from '../../../src/backend/field-support.js';
import type { BackendSettings } from '../../../src/runtime/configuration.js';
import { NEUTRAL_FIELD_NAMES, type NeutralField } from '../../../src/model/neutral-fields.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { NeutralResult } from '../../../src/model/result.js';
import type { StreamBatches } from '../../../src/model/stream-event.js';
import { parseResponsesRequest } from '../../../src/dialects/openai-responses/parse-request.js';
import { planRequest } from '../../../src/pipeline/plan/plan.js';
import { grammarCache, grammarKey } from '../../../src/pipeline/plan/emulate/cached-tool-call-grammar.js';
import { invalidRequest } from '../../../src/errors/proxy-error.js';

/** What every fake backend takes: the fields no backend kind refuses. */
const BASE: readonly NeutralField[] = [
  'sampling.temperature',
  'sampling.topP',
  'sampling.presencePenalty',
  'sampling.frequencyPenalty',
  'choices',
  'limits.stop',
  'limits.maxTokens',
  'prompt:batch',
  'toolChoice',
  'parallelToolCalls',
  'responseFormat:text',
  'perfMetricsInBody',
];

interface FakeBackend extends Partial<Omit<BackendCapabilities, 'fields'>> {
  /** Fields it takes beyond BASE. */
  supported?: readonly NeutralField[];
  nativeChoices?: boolean;
}

/** An adapter that records what it receives and answers with one choice per request (or `n`, when native). */
function fakeAdapter({ supported = [], nativeChoices = true, ...capabilities }: FakeBackend): Adapter & { seen: NeutralRequest[] } {
  const seen: NeutralRequest[] = [];
  const taken = new Set([...BASE, ...supported]);
  const fields = Object.fromEntries(
    NEUTRAL_FIELD_NAMES.map((field) => [field, taken.has(field) ? copy(field) : unsupported('fake')]),
  ) as Record<NeutralField, ReturnType<typeof copy>>;
  if (!nativeChoices) fields.choices = emulate('fanned out');
  const full: BackendCapabilities = {
    speaks: ['chat', 'completions'],
    fields: fields as FieldSupport,
    maxTopLogprobs: 5,
    efforts: new Set(['low', 'medium', 'high']),
    relayed: NOTHING_RELAYED,
    label: { chat: 'fake', text: 'fake' },
    conversation: OPENAI_CONVERSATION,
    ...capabilities,
  };
  const choicesOf = (request: NeutralRequest) => (nativeChoices ? request.choices : 1);
  return {
    name: 'fake',
    capabilities: full,
    seen,
    toWire: (request) => ({ ...request }),
    async complete(request): Promise<NeutralResult> {
      seen.push(request);
      return {
        id: 'x',
        model: request.model,
        created: 1,
        choices: Array.from({ length: choicesOf(request) }, (_, index) => ({
          index,
          text: `${request.endpoint}:${request.sampling.seed ?? '-'}`,
          finishReason: 'stop' as const,
        })),
        usage: { promptTokens: 2, completionTokens: 1, totalTokens: 3 },
      };
    },
    async *stream(): StreamBatches {
      /* unused */
    },
  };
}

const route = (adapter: Adapter, settings: Partial<BackendSettings> = {}) => ({
  backend: { name: 'b', adapter, settings: { kind: 'openai', url: 'http://x', ...settings } as BackendSettings },
  upstreamModel: 'up',
});
const context = { signal: new AbortController().signal, requestId: 'r' };

function chat(patch: Partial<NeutralRequest> = {}): NeutralRequest {
  return { ...emptyRequest('chat', 'm'), messages: [{ role: 'user', content: 'hi' }], ...patch };
}

describe('planRequest', () => {
  test('a feature the backend lacks is a 400 naming the caller field and the backend', () => {
    const request = chat({ sampling: { topK: 5 }, origins: { 'sampling.topK': 'top_k' } });
    expect(() => planRequest(request, route(fakeAdapter({})))).toThrow(
      expect.objectContaining({ status: 400, param: 'top_k', message: expect.stringContaining('backend "b"') }),
    );
  });

  test("a relayed field the backend does not take is refused under the caller's own name (Responses' text.verbosity, relayed as verbosity)", () => {
    const request = parseResponsesRequest({ model: 'm', input: 'Hi', text: { verbosity: 'low' } });
    expect(request.passthrough).toEqual({ verbosity: 'low' });
    expect(() => planRequest(request, route(fakeAdapter({})))).toThrow(
      expect.objectContaining({
        status: 400,
        param: 'text.verbosity',
        message: expect.stringMatching(/^text.verbosity is not supported by this backend/),
      }),
    );
    const dropped = parseResponsesRequest({ model: 'm', input: 'Hi', text: { verbosity: 'low' } });
    expect(planRequest(dropped, route(fakeAdapter({}), { dropUnsupported: true })).warnings).toEqual([
      'text.verbosity dropped: text.verbosity is not supported by this backend',
    ]);
    expect(dropped.passthrough).toEqual({ verbosity: 'low' });
  });

  test('a field only the other endpoint takes is refused on the endpoint the request goes to (there is no second guard at the wire)', () => {
    const adapter = fakeAdapter({});
    (adapter.capabilities.fields as Record<string, unknown>)['sampling.topK'] = { chat: copy('top_k'), text: unsupported('chat only') };
    const text = { ...emptyRequest('text', 'm'), prompt: 'hi', sampling: { topK: 5 }, origins: { 'sampling.topK': 'top_k' } };
    expect(() => planRequest(text, route(adapter))).toThrow(expect.objectContaining({ status: 400, param: 'top_k' }));
    expect(planRequest(chat({ sampling: { topK: 5 } }), route(adapter)).fields.fields).toContainEqual({
      field: 'sampling.topK',
      param: 'top_k',
      decision: { kind: 'copy', wire: 'top_k' },
    });
  });

  test('the field plan: each field the caller sent, its decision on the upstream endpoint; collected, every refusal at once', () => {
    const request = chat({
      sampling: { topK: 5, minP: 0.1, temperature: 0.5 },
      origins: { 'sampling.topK': 'top_k', 'sampling.minP': 'min_p', 'sampling.temperature': 'temperature' },
    });
    const plan = planRequest(request, route(fakeAdapter({})), { collectRefusals: true });
    expect(plan.fields).toEqual({
      endpoint: 'chat',
      fields: [
        { field: 'sampling.temperature', param: 'temperature', decision: { kind: 'copy', wire: 'sampling.temperature' } },
        { field: 'sampling.topK', param: 'top_k', decision: { kind: 'refuse', reason: 'fake' } },
        { field: 'sampling.minP', param: 'min_p', decision: { kind: 'refuse', reason: 'fake' } },
      ],
      relayed: [],
    });
    expect(plan.refusal).toMatchObject({ status: 400, param: 'top_k' });
    expect(plan.request.sampling).toEqual({ temperature: 0.5 });
    // Collecting is not dropping: no warning says they were dropped.
    expect(plan.warnings).toEqual([]);
  });

  test("an upstream 400 naming a wire field names the caller's field it came from, by the field plan", async () => {
    const adapter = fakeAdapter({ supported: ['sampling.topK'] });
    (adapter.capabilities.fields as Record<string, unknown>)['limits.maxTokens'] = copy('max_completion_tokens');
    adapter.complete = async () => {
      throw invalidRequest('max_completion_tokens', 'too many');
    };
    const request = chat({
      limits: { stop: [], maxTokens: 9, onContextOverflow: 'truncate' },
      origins: { 'limits.maxTokens': 'max_tokens' },
    });
    const plan = planRequest(request, route(adapter));
    await expect(plan.engine.complete(plan.request, context)).rejects.toMatchObject({ param: 'max_tokens' });
  });

  test('dropUnsupported drops it and records a warning', () => {
    const request = chat({ sampling: { topK: 5 } });
    const plan = planRequest(request, route(fakeAdapter({}), { dropUnsupported: true }));
    expect(plan.request.sampling.topK).toBeUndefined();
    expect(plan.warnings).toEqual(['top_k dropped: top_k is not supported by this backend']);
    expect(plan.notes).toEqual([{ kind: 'refused', param: 'top_k', reason: 'fake' }]);
    // The caller's request is the plan's input, never changed: a fallback plans it again.
    expect(request.sampling.topK).toBe(5);
    expect(request.warnings).toEqual([]);
  });

  test('top logprobs beyond the backend limit is a 400, never clamped', () => {
    const request = chat({ logprobs: { top: 8, shape: 'chat' }, origins: { 'logprobs.top': 'top_logprobs' } });
    expect(() => planRequest(request, route(fakeAdapter({ supported: ['logprobs'] })))).toThrow(
      expect.objectContaining({ param: 'top_logprobs' }),
    );
  });

  test('a thinking budget becomes an effort through the ladder on an effort-only backend, with a warning', () => {
    const request = chat({ reasoning: { budgetTokens: 3000 }, origins: { 'reasoning.budgetTokens': 'reasoning_effort' } });
    const plan = planRequest(request, route(fakeAdapter({ supported: ['reasoning.effort'] })));
    expect(plan.request.reasoning).toEqual({ effort: 'medium' });
    expect(plan.warnings[0]).toMatch(/budget of 3000 thinking tokens was sent as reasoning_effort "medium"/);
  });

  test('a budget must leave room under max_tokens on a budget backend', () => {
    const request = chat({ reasoning: { budgetTokens: 2048 }, limits: { stop: [], onContextOverflow: 'truncate', maxTokens: 1000 } });
    expect(() => planRequest(request, route(fakeAdapter({ supported: ['reasoning.budgetTokens'] })))).toThrow(/must be below max_tokens/);
  });

  test("a route's efforts and ladder apply to its model", () => {
    const adapter = fakeAdapter({ supported: ['reasoning.effort'] });
    const match = { ...route(adapter), route: { model: 'o*', backend: 'b', efforts: ['high'], effortLadder: { high: 100000 } } };
    const low = chat({ reasoning: { effort: 'low' } });
    const planned = planRequest(low, match);
    expect(planned.request.reasoning).toEqual({ effort: 'high' });
    expect(planned.warnings).toEqual(['reasoning_effort "low" was sent as "high", the nearest effort this backend takes']);
    const plan = planRequest(chat({ reasoning: { budgetTokens: 3000 } }), match);
    expect(plan.request.reasoning).toEqual({ effort: 'high' });
  });

  test('an effort the backend does not take: the nearest one it takes, with a warning', () => {
    const request = chat({ reasoning: { effort: 'max' } });
    const plan = planRequest(request, route(fakeAdapter({ supported: ['reasoning.effort'] })));
    expect(plan.request.reasoning).toEqual({ effort: 'high' });
    expect(request.reasoning).toEqual({ effort: 'max' });
    expect(plan.warnings).toEqual(['reasoning_effort "max" was sent as "high", the nearest effort this backend takes']);
  });

  test('"none" and "adaptive" have no stand-in: a 400 naming the caller\'s field', () => {
    const off = chat({ reasoning: { effort: 'none' }, origins: { 'reasoning.effort': 'thinking.type' } });
    expect(() => planRequest(off, route(fakeAdapter({ supported: ['reasoning.effort'] })))).toThrow(
      expect.objectContaining({
        param: 'thinking.type',
        message: expect.stringMatching(
          /^thinking.type "none" is not supported by this backend \(thinking cannot be switched off here; accepted: low, medium, high\)/,
        ),
      }),
    );
    expect(() => planRequest(chat({ reasoning: { effort: 'adaptive' } }), route(fakeAdapter({ supported: ['reasoning.effort'] })))).toThrow(
      /reasoning_effort "adaptive" is not supported by this backend/,
    );
  });

  test('an effort on a backend that takes only a thinking budget: the budget from the ladder', () => {
    const request = chat({ reasoning: { effort: 'xhigh' } });
    const plan = planRequest(request, route(fakeAdapter({ supported: ['reasoning.budgetTokens'], efforts: new Set() })));
    expect(plan.request.reasoning).toEqual({ budgetTokens: 32768 });
    expect(plan.warnings).toEqual(['reasoning_effort "xhigh" was sent as a thinking budget of 32768 tokens']);
  });

  test('an effort where the backend takes neither an effort nor a budget: a 400', () => {
    const request = chat({ reasoning: { effort: 'minimal' } });
    expect(() => planRequest(request, route(fakeAdapter({ efforts: new Set() })))).toThrow(
      expect.objectContaining({
        param: 'reasoning_effort',
        message: expect.stringMatching(
          /reasoning_effort "minimal" is not supported by this backend \(this backend takes no reasoning effort\)/,
        ),
      }),
    );
  });

  test('n fans out on a backend without native choices, seed + j per copy', async () => {
    const adapter = fakeAdapter({ nativeChoices: false, supported: ['sampling.seed'] });
    const plan = planRequest(chat({ choices: 3, sampling: { seed: 10 } }), route(adapter));
    const result = await plan.engine.complete(plan.request, context);
    expect(result.choices.map((c) => [c.index, c.text])).toEqual([
      [0, 'chat:10'],
      [1, 'chat:11'],
      [2, 'chat:12'],
    ]);
    expect(result.usage).toEqual({ promptTokens: 6, completionTokens: 3, totalTokens: 9 });
  });

  test('a prompt batch on a chat-only backend: one chat request per prompt, index = prompt * n + j', async () => {
    const adapter = fakeAdapter({ speaks: ['chat'] });
    const request: NeutralRequest = { ...emptyRequest('text', 'm'), prompt: ['a', 'b'], choices: 2 };
    const plan = planRequest(request, route(adapter));
    const result = await plan.engine.complete(plan.request, context);
    expect(adapter.seen.map((r) => [r.endpoint, r.messages])).toEqual([
      ['chat', [{ role: 'user', content: 'a' }]],
      ['chat', [{ role: 'user', content: 'b' }]],
    ]);
    expect(result.choices.map((c) => c.index)).toEqual([0, 1, 2, 3]);
  });

  test('chat on a completions-only backend renders the template; tools are emulated, not rejected', async () => {
    const adapter = fakeAdapter({ speaks: ['completions'] });
    const plan = planRequest(chat({ tools: [{ name: 'f' }] }), route(adapter));
    await plan.engine.complete(plan.request, context);
    expect(adapter.seen[0].endpoint).toBe('text');
    expect(adapter.seen[0].prompt).toContain('<tools>');
    expect(adapter.seen[0].model).toBe('up');
  });
});

describe('planRequest: tools over a completions-only backend', () => {
  test('tool_choice required cannot be enforced through a prompt: 400', () => {
    const request = chat({ tools: [{ name: 'f' }], toolChoice: 'required', origins: { toolChoice: 'tool_choice' } });
    expect(() => planRequest(request, route(fakeAdapter({ speaks: ['completions'] })))).toThrow(
      expect.objectContaining({ status: 400, param: 'tool_choice' }),
    );
  });

  test('on a backend that takes grammars, a named tool_choice is enforced by one: only that call is admitted', () => {
    const request = chat({ tools: [{ name: 'f' }, { name: 'g' }], toolChoice: { name: 'g' } });
    const plan = planRequest(request, route(fakeAdapter({ speaks: ['completions'], supported: ['responseFormat:grammar'] })));
    expect(plan.request.responseFormat?.type).toBe('grammar');
    const grammar = (plan.request.responseFormat as { grammar: string }).grammar;
    expect(grammar).toContain('root ::= call\n');
    expect(grammar).toContain('call ::= call0\n');
    expect(grammar).toContain('" "\\"g\\"" "');
    expect(grammar).not.toContain('"\\"f\\""');
  });

  test('caching breakpoints are dropped where the backend has none: only the messages that carry one are copied', () => {
    const plain = { role: 'user' as const, content: 'a long history' };
    const marked = {
      role: 'user' as const,
      content: [{ type: 'text' as const, text: 'here', vendor: { anthropic: { cacheControl: { type: 'ephemeral' as const } } } }],
    };
    const request = chat({ messages: [plain, marked] });
    const plan = planRequest(request, route(fakeAdapter({})));
    expect(plan.warnings.some((warning) => warning.startsWith('cache_control not sent'))).toBe(true);
    expect(plan.request.messages![0]).toBe(plain);
    expect(plan.request.messages![1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'here' }] });
    expect(request.messages![1]).toBe(marked); // the caller's request is never changed
    expect(marked.content[0].vendor.anthropic.cacheControl).toEqual({ type: 'ephemeral' });
  });

  test("a tool set's grammar is built once: the next request with the same tools gets the kept one", () => {
    const request = chat({ tools: [{ name: 'kept_f' }], toolChoice: 'required' });
    grammarCache.set(grammarKey(request.tools!, false), 'root ::= "kept"');
    const plan = planRequest(request, route(fakeAdapter({ speaks: ['completions'], supported: ['responseFormat:grammar'] })));
    expect(plan.request.responseFormat).toEqual({ type: 'grammar', grammar: 'root ::= "kept"' });
  });

  test('parallel_tool_calls false keeps the first call the model made', async () => {
    const adapter = fakeAdapter({ speaks: ['completions'] });
    adapter.complete = async (request) => ({
      id: 'x',
      model: request.model,
      created: 1,
      choices: [
        {
          index: 0,
          text: '<tool_call>{"name":"f","arguments":{}}</tool_call><tool_call>{"name":"g","arguments":{}}</tool_call>',
          finishReason: 'stop',
        },
      ],
    });
    const plan = planRequest(chat({ tools: [{ name: 'f' }, { name: 'g' }], parallelToolCalls: false }), route(adapter));
    const result = await plan.engine.complete(plan.request, context);
    expect(result.choices[0].toolCalls?.map((call) => call.name)).toEqual(['f']);
    expect(result.choices[0].finishReason).toBe('tool_calls');
  });
});

describe('planRequest: completions over a chat backend', () => {
  test('images fill the <image> placeholders as image parts', async () => {
    const adapter = fakeAdapter({ speaks: ['chat'] });
    const request: NeutralRequest = {
      ...emptyRequest('text', 'm'),
      prompt: 'Look: <image> and <image>?',
      images: ['data:image/png;base64,AA', 'data:image/png;base64,BB'],
    };
    const plan = planRequest(request, route(adapter));
    await plan.engine.complete(plan.request, context);
    expect(adapter.seen[0].messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look: ' },
          { type: 'image', url: 'data:image/png;base64,AA' },
          { type: 'text', text: ' and ' },
          { type: 'image', url: 'data:image/png;base64,BB' },
          { type: 'text', text: '?' },
        ],
      },
    ]);
    expect(adapter.seen[0].images).toBeUndefined();
  });
});

describe('planRequest: per-route model format', () => {
  test("a route's think tags and template win over the backend's", async () => {
    const adapter = fakeAdapter({ speaks: ['completions'] });
    adapter.complete = async (request) => {
      adapter.seen.push(request);
      return { id: 'x', model: request.model, created: 1, choices: [{ index: 0, text: '[[plan]]answer', finishReason: 'stop' }] };
    };
    const match = {
      ...route(adapter, { thinkTags: { open: '<think>', close: '</think>' } }),
      route: {
        model: 'r1*',
        backend: 'b',
        thinkTags: { open: '[[', close: ']]' },
        chatTemplate: '{% for m in messages %}{{ m.content }}{% endfor %}',
      },
    };
    const plan = planRequest(chat(), match);
    const result = await plan.engine.complete(plan.request, context);
    expect(adapter.seen[0].prompt).toBe('hi');
    expect(result.choices[0]).toMatchObject({ text: 'answer', reasoning: 'plan' });
  });
});
