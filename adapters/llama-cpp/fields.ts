/**
 * `kind: llama-cpp`: what the bundled worker does with every neutral field. It
 * generates from one prompt at a time; the plan renders chat through the chat
 * template and fans out `n` and prompt batches. The "wire" is the worker's
 * generate request (types.ts), in the engine's own names.
 */
import {
  convert,
  copy,
  emulate,
  native,
  NOTHING_RELAYED,
  unsupported,
  type BackendTable,
  OPENAI_CONVERSATION,
} from '../../src/backend/field-support.js';
import { invalidRequest } from '../../src/errors/proxy-error.js';
import { paramOf } from '../../src/model/neutral-fields.js';
import type { ResponseFormat } from '../../src/model/request.js';
import type { LlamaGrammarSpec } from './types.js';

/** Qwen3's suggested words for a thought cut short by its budget. */
export const defaultBudgetEndText =
  '\n\nConsidering the limited time by the user, I have to give the solution based on the thinking directly now.\n';
export const defaultThinkTags = { open: '<think>', close: '</think>' } as const;

export interface LlamaCppTableOptions {
  /** The model's chat template reads `enable_thinking` or `reasoning_effort` (Qwen3, GPT-OSS, ...), so it can switch thinking. */
  templateThinks?: boolean;
  thinkTags?: { open: string; close: string };
}

const logitBias = convert('logitBias by token id', (body, request) => {
  const param = paramOf(request, 'sampling.logitBias');
  const out: Record<number, number> = {};
  for (const [key, value] of Object.entries(request.sampling.logitBias ?? {})) {
    if (!/^\d+$/.test(key)) throw invalidRequest(`${param}.${key}`, `logit_bias keys must be token ids; got "${key}".`);
    out[Number(key)] = value;
  }
  body.logitBias = out;
});

const grammar = convert('grammar (JSON, a JSON schema or GBNF)', (body, request) => {
  const spec = grammarOf(request.responseFormat as ResponseFormat);
  if (spec) body.grammar = spec;
});

const fromTemplate = emulate('rendered into the prompt by the chat template');

export function llamaCppTable({ templateThinks = false, thinkTags = defaultThinkTags }: LlamaCppTableOptions = {}): BackendTable {
  // A thinking budget; the thought counts as open from the start when the prompt ends with the open tag.
  const thinking = convert('a thinking budget, enforced while sampling (generate.ts)', (body, request) => {
    const budget = request.reasoning?.budgetTokens;
    if (budget === undefined) return;
    const prompt = body.prompt;
    body.thinking = {
      budgetTokens: budget,
      budgetEndText: request.reasoning?.budgetEndText ?? defaultBudgetEndText,
      openTag: thinkTags.open,
      closeTag: thinkTags.close,
      startsInside: typeof prompt === 'string' && prompt.trimEnd().endsWith(thinkTags.open),
    };
  });
  return {
    fields: {
      'sampling.temperature': copy('temperature'),
      'sampling.topP': copy('topP'),
      'sampling.topK': copy('topK'),
      'sampling.minP': copy('minP'),
      'sampling.typicalP': copy('typicalP'),
      'sampling.presencePenalty': copy('presencePenalty'),
      'sampling.frequencyPenalty': copy('frequencyPenalty'),
      'sampling.repetitionPenalty': copy('repetitionPenalty'),
      'sampling.mirostat': unsupported("node-llama-cpp's sampler has no Mirostat"),
      'sampling.seed': copy('seed'),
      'sampling.logitBias': logitBias,
      // Copies that land on the same sequence reuse the prompt's evaluation.
      choices: emulate('fanned out: one generation per choice (seed + j)'),
      'limits.stop': native('always sent'),
      'limits.maxTokens': copy('maxTokens'),
      'limits.ignoreEos': copy('ignoreEos'),
      'limits.onContextOverflow': native('always sent: the worker answers 400 when the prompt and max_tokens do not fit'),
      'prompt:tokenIds': native('evaluated as given'),
      'prompt:batch': emulate('one request per prompt'),
      images: unsupported('the worker takes text only'),
      logprobs: convert('logprobs: top N', (body, request) => {
        body.logprobs = request.logprobs?.top;
      }),
      echo: copy('echo'),
      'echo.lastTokens': native('with echo'),
      tools: fromTemplate,
      'tools:custom': emulate(
        'rendered into the prompt as a function with one string parameter, `input`, its calls unwrapped; a regex on the input is enforced by grammar when tool_choice forces the call',
      ),
      toolChoice: fromTemplate,
      parallelToolCalls: fromTemplate,
      'responseFormat:text': native('the default'),
      'responseFormat:json_object': grammar,
      'responseFormat:json_schema': grammar,
      'responseFormat:grammar': grammar,
      'reasoning.effort': templateThinks
        ? fromTemplate
        : unsupported("the model's chat template reads no reasoning_effort or enable_thinking"),
      'reasoning.budgetTokens': thinking,
      'reasoning.history': unsupported('no reasoning history setting (a chat request renders it through the template)'),
      'reasoning.budgetEndText': thinking,
      prediction: unsupported('no speculative decoding'),
      returnTokenIds: native('the worker returns token ids with every token'),
      'stream.tokenIds': native('the worker returns token ids with every token'),
      rawOutput: unsupported('no raw output'),
      perfMetricsInBody: emulate('the proxy reports its own timings (pipeline/answer/request-meter.ts)'),
      samplingMask: unsupported('no sampling mask'),
      promptCacheIsolationKey: unsupported('no prompt cache isolation key'),
      metadata: unsupported('no metadata'),
      store: unsupported('no store'),
      serviceTier: unsupported('no service tiers'),
      user: unsupported('no such field'),
      promptCacheKey: unsupported('no such field'),
      cacheControl: unsupported('no caching breakpoints: it caches prompt prefixes on its own'),
      contextManagement: unsupported('no server-side context editing'),
      toolError: unsupported('a tool result has no error flag: its content goes as it is'),
    },
    relayed: NOTHING_RELAYED,
    label: { chat: 'the local model', text: 'the local model' },
    conversation: OPENAI_CONVERSATION,
  };
}

/** Efforts handed to a chat template that reads them (as `reasoning_effort`, and `enable_thinking` = effort != none). */
export const TEMPLATE_EFFORTS: readonly string[] = ['none', 'low', 'medium', 'high'];

function grammarOf(format: ResponseFormat): LlamaGrammarSpec | undefined {
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return format.schema ? { kind: 'json-schema', schema: format.schema } : { kind: 'json' };
    case 'json_schema':
      return { kind: 'json-schema', schema: format.schema };
    case 'grammar':
      return { kind: 'gbnf', text: format.grammar };
  }
}
