/** The engine that applies a backend's field table to its wire body: copies, converters once, the guard, relayed fields. */
import {
  byEndpoint,
  convert,
  copy,
  emulate,
  native,
  OPENAI_CONVERSATION,
  unsupported,
  type BackendTable,
  type FieldHandling,
  type FieldSupport,
} from '../../../src/backend/field-support.js';
import { writeFields } from '../../../src/backend/write-fields.js';
import { NEUTRAL_FIELD_NAMES, type NeutralField } from '../../../src/model/neutral-fields.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';

/** A table where every field is `rest`, but for the given ones. */
function table(
  fields: Partial<Record<NeutralField, FieldHandling | { chat: FieldHandling; text: FieldHandling }>>,
  rest: FieldHandling = native('test'),
  relayed: string[] = [],
): BackendTable {
  const all = Object.fromEntries(NEUTRAL_FIELD_NAMES.map((field) => [field, fields[field] ?? rest])) as FieldSupport;
  return {
    fields: all,
    relayed: { chat: new Set(relayed), text: new Set() },
    label: { chat: 'Test chat', text: 'Test completions' },
    conversation: OPENAI_CONVERSATION,
  };
}

const text = (patch: Partial<NeutralRequest> = {}): NeutralRequest => ({ ...emptyRequest('text', 'm'), prompt: 'Hi', ...patch });
const chat = (patch: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', 'm'),
  messages: [{ role: 'user', content: 'Hi' }],
  ...patch,
});

describe('writeFields', () => {
  test('copies set values under their wire names and leaves absent ones out', () => {
    const request = text({ sampling: { topK: 40, temperature: 0 }, limits: { stop: [], maxTokens: 5, onContextOverflow: 'truncate' } });
    const body = writeFields(
      {},
      request,
      table({
        'sampling.topK': copy('top_k'),
        'sampling.temperature': copy('temperature'),
        'limits.maxTokens': copy('max_tokens'),
        'limits.stop': copy('stop'),
      }),
    );
    // temperature 0 is a value; an empty stop list and choices 1 are defaults, not sent.
    expect(body).toEqual({ top_k: 40, temperature: 0, max_tokens: 5 });
  });

  test('a converter shared by several fields runs once', () => {
    let runs = 0;
    const reasoning = convert('both', (body, request) => {
      runs += 1;
      body.thinking = { effort: request.reasoning?.effort, budget: request.reasoning?.budgetTokens };
    });
    const body = writeFields(
      {},
      text({ reasoning: { effort: 'high', budgetTokens: 100 } }),
      table({ 'reasoning.effort': reasoning, 'reasoning.budgetTokens': reasoning }),
    );
    expect(runs).toBe(1);
    expect(body).toEqual({ thinking: { effort: 'high', budget: 100 } });
  });

  test('an unsupported field writes nothing: the plan refused or dropped it on this endpoint (plan.test.ts)', () => {
    expect(writeFields({}, text({ sampling: { topK: 40 } }), table({ 'sampling.topK': unsupported('no top-k') }))).toEqual({});
  });

  test('a value that asks for nothing passes an unsupported field without a word (store: false, ignore_eos: false)', () => {
    const request = text({ store: false, limits: { stop: [], ignoreEos: false, onContextOverflow: 'truncate' } });
    expect(writeFields({}, request, table({ store: unsupported('x'), 'limits.ignoreEos': unsupported('x') }))).toEqual({});
  });

  test('per endpoint: the chat handling for chat requests, the completions handling for text', () => {
    const fields = table({ 'limits.maxTokens': byEndpoint({ chat: copy('max_completion_tokens'), text: copy('max_tokens') }) });
    const limits = { stop: [], maxTokens: 9, onContextOverflow: 'truncate' as const };
    expect(writeFields({}, chat({ limits }), fields)).toEqual({ max_completion_tokens: 9 });
    expect(writeFields({}, text({ limits }), fields)).toEqual({ max_tokens: 9 });
  });

  test('emulated and native fields send nothing', () => {
    expect(
      writeFields(
        {},
        text({ choices: 3, perfMetricsInBody: true }),
        table({ choices: emulate('fan-out'), perfMetricsInBody: native('x') }),
      ),
    ).toEqual({});
  });

  test('relayed wire fields pass verbatim (the plan kept only those the endpoint takes)', () => {
    const relays = table({}, native('x'), ['web_search_options']);
    expect(writeFields({}, chat({ passthrough: { web_search_options: { a: 1 } } }), relays)).toEqual({ web_search_options: { a: 1 } });
  });
});
