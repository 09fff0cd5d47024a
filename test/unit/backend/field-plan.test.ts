/** An upstream's field mapped back to the caller's by inverting the field plan. */
import { callerFieldOf, type FieldPlan } from '../../../src/backend/field-plan.js';

const plan: FieldPlan = {
  endpoint: 'chat',
  fields: [
    { field: 'limits.maxTokens', param: 'max_tokens', decision: { kind: 'copy', wire: 'max_completion_tokens' } },
    { field: 'sampling.topP', param: 'top_p', decision: { kind: 'convert', note: 'generationConfig.topP', wire: 'generationConfig' } },
    {
      field: 'reasoning.effort',
      param: 'reasoning_effort',
      decision: { kind: 'convert', note: 'generationConfig.thinkingConfig {thinkingBudget, includeThoughts}', wire: 'generationConfig' },
    },
    {
      field: 'sampling.temperature',
      param: 'temperature',
      decision: { kind: 'convert', note: 'generationConfig.temperature', wire: 'generationConfig' },
    },
    { field: 'sampling.seed', param: 'seed', decision: { kind: 'drop', reason: 'no seed' } },
  ],
  relayed: [{ param: 'service_tier', decision: { kind: 'copy', wire: 'service_tier' } }],
};

describe('callerFieldOf', () => {
  test("a copy's wire name, or a path inside it", () => {
    expect(callerFieldOf(plan, 'max_completion_tokens')).toBe('max_tokens');
    expect(callerFieldOf(plan, 'max_completion_tokens_x')).toBeUndefined();
  });
  test("the converter whose note's path is the longest the wire path is inside", () => {
    expect(callerFieldOf(plan, 'generationConfig.topP')).toBe('top_p');
    expect(callerFieldOf(plan, 'generationConfig.thinkingConfig.thinkingBudget')).toBe('reasoning_effort');
  });
  test('a path no field wrote, or two fields could have: none is named', () => {
    expect(callerFieldOf(plan, 'generationConfig')).toBeUndefined();
    expect(callerFieldOf(plan, 'generationConfig.candidateCount')).toBeUndefined();
    const shared: FieldPlan = {
      endpoint: 'chat',
      fields: [
        { field: 'logprobs', param: 'logprobs', decision: { kind: 'convert', note: 'logprobs (true + top_logprobs)', wire: 'logprobs' } },
        { field: 'echo', param: 'echo', decision: { kind: 'convert', note: 'logprobs.echo', wire: 'logprobs' } },
        { field: 'sampling.seed', param: 'seed', decision: { kind: 'convert', note: 'logprobs', wire: 'logprobs' } },
      ],
      relayed: [],
    };
    expect(callerFieldOf(shared, 'logprobs')).toBeUndefined();
    expect(callerFieldOf(shared, 'logprobs.echo')).toBe('echo');
  });
  test('a field the plan dropped was not sent: it named nothing upstream', () => {
    expect(callerFieldOf(plan, 'seed')).toBeUndefined();
  });
  test('a relayed field is its own', () => {
    expect(callerFieldOf(plan, 'service_tier')).toBe('service_tier');
  });
});
