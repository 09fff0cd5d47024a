/** The GenAI attribute names written out in genai-attributes.ts are the conventions' own (their `incubating` entry). */
import * as conventions from '@opentelemetry/semantic-conventions/incubating';
import { GEN_AI, operationOf, requestAttributes } from '../../../src/telemetry/genai-attributes.js';
import { findKind } from '../../../adapters/registry.js';
import { emptyRequest } from '../../../src/model/request.js';

test('every name is an attribute of the semantic conventions', () => {
  const known = new Set(
    Object.entries(conventions)
      .filter(([name]) => name.startsWith('ATTR_GEN_AI_'))
      .map(([, value]) => value as string),
  );
  expect(Object.values(GEN_AI).filter((name) => !known.has(name))).toEqual([]);
});

test('operation and provider names', () => {
  expect([operationOf('chat'), operationOf('text')]).toEqual([
    conventions.GEN_AI_OPERATION_NAME_VALUE_CHAT,
    conventions.GEN_AI_OPERATION_NAME_VALUE_TEXT_COMPLETION,
  ]);
  // A kind's `provider` where the conventions have a name for it, its own name otherwise (create-runtime.ts).
  const providerOf = (kind: string) => findKind(kind)?.provider ?? kind;
  expect(providerOf('openai')).toBe(conventions.GEN_AI_PROVIDER_NAME_VALUE_OPENAI);
  expect(providerOf('anthropic')).toBe(conventions.GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC);
  expect(providerOf('gemini')).toBe(conventions.GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI);
  expect(providerOf('vllm')).toBe('vllm');
});

test('only what the caller set', () => {
  const request = emptyRequest('chat', 'm');
  request.sampling.temperature = 0;
  request.limits.maxTokens = 7;
  expect(requestAttributes(request)).toEqual({
    'gen_ai.request.model': 'm',
    'gen_ai.request.temperature': 0,
    'gen_ai.request.max_tokens': 7,
  });
});
