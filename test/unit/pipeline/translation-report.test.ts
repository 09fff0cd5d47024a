/**
 * The list of changes a translation makes (pipeline/translation-report.ts): every refusal at
 * once, renames told from conversions, conversions between endpoints named, drops and
 * approximations counted as losses, and the verdict that decides the exit codes.
 */
import { loadConfig } from '../../../src/runtime/configuration.js';
import { exitCodeOf, type Change, type TranslationReport } from '../../../src/pipeline/report/translation-report.js';
import { createTranslator, type TranslateTarget, type Translator } from '../../../src/commands/translate.js';

const translators = new Map<string, Translator>();

async function report(target: TranslateTarget, body: Record<string, unknown>): Promise<TranslationReport> {
  const key = JSON.stringify(target);
  let translator = translators.get(key);
  if (!translator) {
    translator = await createTranslator(target);
    translators.set(key, translator);
  }
  const translation = await translator.translate(body);
  if (translation.verdict === 'invalid') throw new Error(`invalid: ${JSON.stringify(translation.error)}`);
  return translation.report;
}

const brief = (changes: Change[]) => changes.map(({ field, action, to }) => (to ? `${action} ${field} -> ${to}` : `${action} ${field}`));

afterAll(async () => {
  for (const translator of translators.values()) await translator.close();
});

describe('translation report', () => {
  test("a stream to a gemini backend is reported at Gemini's stream path, not generateContent's", async () => {
    const streamed = await report({ kind: 'gemini' }, { model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    expect(streamed.upstream.map(({ endpoint, stream }) => [endpoint, stream])).toEqual([
      ['/models/{model}:streamGenerateContent?alt=sse', true],
    ]);
    const answered = await report({ kind: 'gemini' }, { model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answered.upstream.map(({ endpoint }) => endpoint)).toEqual(['/models/{model}:generateContent']);
  });

  test('names every refusal in one run: top_k and thinking, with the error a caller gets for the first', async () => {
    const result = await report(
      { kind: 'openai' },
      {
        model: 'm',
        prompt: 'Hi',
        max_tokens: 64,
        top_k: 40,
        thinking: { type: 'enabled', budget_tokens: 2048, budget_end_str: 'Answer:' },
      },
    );
    expect(result.verdict).toBe('rejected');
    expect(brief(result.changes)).toEqual([
      'rejected top_k',
      'rejected thinking.budget_end_str',
      'converted thinking.budget_tokens -> reasoning_effort',
      'converted prompt -> messages',
      'renamed max_tokens -> max_completion_tokens',
    ]);
    expect(result.changes[0].reason).toBe('OpenAI has no top-k sampling');
    expect(result.error).toMatchObject({ status: 400, body: { error: { param: 'top_k', code: 'unsupported_parameter' } } });
    // What would go without the refused fields.
    expect(result.upstream).toEqual([
      {
        endpoint: '/chat/completions',
        stream: false,
        body: { model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 64, reasoning_effort: 'low' },
      },
    ]);
    expect(exitCodeOf(result.verdict)).toBe(2);
  });

  test('every refusal of the plan is found in one plan; a value the wire builder cannot send is the refusal shown', async () => {
    const planned = await report(
      { kind: 'openai' },
      { model: 'm', messages: [{ role: 'user', content: 'Hi' }], top_k: 4, min_p: 0.1, repetition_penalty: 1.1 },
    );
    expect(planned.changes.filter((change) => change.action === 'rejected').map((change) => change.field)).toEqual([
      'top_k',
      'min_p',
      'repetition_penalty',
    ]);
    expect(planned.error?.body).toMatchObject({ error: { param: 'top_k' } });
    expect(planned.upstream[0].body).not.toHaveProperty('top_k');
    // Refused by the OpenAI chat table's converter (a schema on json_object), not by the plan: the wire is never built.
    const converted = await report(
      { kind: 'openai' },
      { model: 'm', messages: [{ role: 'user', content: 'Hi' }], response_format: { type: 'json_object', schema: { type: 'object' } } },
    );
    expect(converted.verdict).toBe('rejected');
    expect(converted.changes).toEqual([expect.objectContaining({ field: 'response_format', action: 'rejected' })]);
    expect(converted.upstream).toEqual([]);
  });

  test('with dropUnsupported the same fields are dropped: lossy, not rejected', async () => {
    const config = loadConfig(
      {
        backends: { up: { kind: 'openai', url: 'http://127.0.0.1:9/v1', dropUnsupported: true } },
        routes: [{ model: '*', backend: 'up' }],
      },
      {},
    );
    const result = await report({ config }, { model: 'm', messages: [{ role: 'user', content: 'Hi' }], top_k: 40, min_p: 0.1 });
    expect(result.verdict).toBe('lossy');
    expect(brief(result.changes)).toEqual(['dropped top_k', 'dropped min_p']);
    expect(result.error).toBeUndefined();
    expect(result.warnings).toEqual([
      'top_k dropped: top_k is not supported by this backend',
      'min_p dropped: min_p is not supported by this backend',
    ]);
  });

  test('a chat request to a completions-only backend: messages, tools and stop are named conversions; ChatML guessed is lossy', async () => {
    const body = {
      model: 'm',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [
        { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
      ],
      stop: ['END'],
    };
    // No chatTemplate configured and none from the model (a remote server's is not known): ChatML is a guess.
    const guessed = await report({ kind: 'vllm', speaks: ['completions'] }, body);
    expect(guessed.verdict).toBe('lossy');
    expect(brief(guessed.changes)).toEqual(['converted messages -> prompt', 'converted tools -> prompt', 'converted stop']);
    expect(guessed.changes[0]).toMatchObject({
      lossy: true,
      reason: expect.stringMatching(/ChatML chat template, a guess: .*chatTemplate/),
    });
    expect(guessed.changes[2].reason).toContain('"<|im_end|>"');
    expect(guessed.upstream[0].body).toMatchObject({ stop: ['END', '<|im_end|>'] });
    expect(guessed.warnings).toEqual([
      'messages was sent as a prompt rendered with the ChatML chat template, a guess (no chatTemplate configured for backend "vllm", none from the model)',
    ]);

    // Configured (ChatML by name, or the model's own Jinja): the operator's choice, lossless.
    for (const chatTemplate of ['chatml', '{% for m in messages %}{{ m.content }}{% endfor %}']) {
      const config = loadConfig({
        backends: { qwen: { kind: 'vllm', url: 'http://127.0.0.1:1/v1', speaks: ['completions'], chatTemplate } },
        routes: [{ model: '*', backend: 'qwen' }],
      });
      const chosen = await report({ config }, body);
      expect(chosen.verdict).toBe('lossless');
      expect(chosen.changes[0]).toMatchObject({ field: 'messages', to: 'prompt', lossy: false });
      expect(chosen.warnings).toEqual([]);
    }

    // A local model not loaded yet (offline): its own template may still come from its file; not called a guess.
    const local = await report({ kind: 'llama-cpp' }, body);
    expect(local.changes[0]).toMatchObject({
      field: 'messages',
      lossy: false,
      reason: expect.stringContaining("the model's own chat template"),
    });
    expect(local.warnings).toEqual([]);
  });

  test('a rename keeps the value; a conversion changes it', async () => {
    const renamed = await report({ kind: 'fireworks' }, { model: 'm', prompt: 'Hi', prediction: ' x' });
    expect(brief(renamed.changes)).toEqual(['renamed prediction -> speculation']);
    const converted = await report(
      { kind: 'openai' },
      { model: 'm', messages: [{ role: 'user', content: 'Hi' }], functions: [{ name: 'f', parameters: { type: 'object' } }] },
    );
    expect(brief(converted.changes)).toEqual(['converted functions -> tools']);
    expect(renamed.verdict).toBe('lossless');
  });

  test('n on a backend without choices is fanned out: emulated, lossless', async () => {
    const result = await report({ kind: 'llama-cpp' }, { model: 'm', prompt: 'Hi', n: 2, seed: 7 });
    expect(result.upstream).toHaveLength(2);
    expect(result.changes).toContainEqual({
      field: 'n',
      action: 'emulated',
      lossy: false,
      reason: 'fanned out: one upstream request per choice (2 requests, seed + j for choice j)',
    });
    expect(result.verdict).toBe('lossless');
  });

  test('a soft field the backend lacks is dropped (lossy); a warning of the dialect is a change too', async () => {
    const soft = await report({ kind: 'vllm' }, { model: 'm', messages: [{ role: 'user', content: 'Hi' }], prompt_cache_key: 'k' });
    expect(soft.verdict).toBe('lossy');
    expect(soft.changes).toEqual([
      { field: 'prompt_cache_key', action: 'dropped', lossy: true, reason: 'not sent: backend "vllm" has no such field' },
    ]);
    const history = await report(
      { kind: 'openai' },
      {
        model: 'm',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello', reasoning_content: 'greet' },
          { role: 'user', content: 'Bye' },
        ],
      },
    );
    expect(history.changes).toEqual([
      {
        field: 'messages[1].reasoning_content',
        action: 'dropped',
        lossy: true,
        reason: 'not sent: OpenAI takes no reasoning on input messages',
      },
    ]);
  });

  test('the same request to its own kind changes nothing', async () => {
    const result = await report({ kind: 'fireworks' }, { model: 'm', prompt: 'Hi', max_tokens: 5, top_k: 40, min_p: 0.1, stop: ['\n'] });
    expect(result).toMatchObject({ verdict: 'lossless', changes: [], warnings: [] });
    expect(exitCodeOf(result.verdict)).toBe(0);
  });

  test("the caller's own defaults are no change (ignore_eos: false, n: 1)", async () => {
    const result = await report({ kind: 'openai' }, { model: 'm', messages: [{ role: 'user', content: 'Hi' }], ignore_eos: false, n: 1 });
    expect(result.changes).toEqual([]);
  });

  test('read from the plan, with the value the plan names: a converter that changes the form is a conversion, not a rename', async () => {
    // speculation went out as prediction {type: content, content}, not as it came.
    const predicted = await report({ kind: 'openai' }, { model: 'm', messages: [{ role: 'user', content: 'Hi' }], speculation: 'Hello' });
    expect(predicted.changes).toContainEqual(expect.objectContaining({ field: 'speculation', action: 'converted', to: 'prediction' }));
    // user became Anthropic's metadata.user_id.
    const user = await report({ kind: 'anthropic' }, { model: 'm', messages: [{ role: 'user', content: 'Hi' }], user: 'u1' });
    expect(user.changes).toContainEqual(expect.objectContaining({ field: 'user', action: 'converted', to: 'metadata' }));
    // The same field in the same form of body, another value: logprobs true went out as 0.
    const logprobs = await report({ kind: 'vllm', speaks: ['completions'] }, { model: 'm', prompt: 'Hi', logprobs: true });
    expect(logprobs.changes).toContainEqual(
      expect.objectContaining({ field: 'logprobs', action: 'converted', reason: 'vLLM completions takes it as logprobs: 0' }),
    );
    // Whether to stream is never a change; plain user text in another form of body is none either.
    const streamed = await report(
      { kind: 'openai' },
      { model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_internal_content: true } },
    );
    expect(streamed.changes.map((change) => change.field)).not.toContain('stream');
    const plain = await report({ kind: 'openai' }, { model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
    expect(brief(plain.changes)).toEqual(['renamed max_tokens -> max_completion_tokens']);
  });
});
