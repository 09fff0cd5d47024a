/**
 * The fate table dry-runs each kind with the wire builder of its adapter, built
 * through the registry as the proxy builds it: the body it shows is the body sent.
 */
import { DEFAULT_PROFILES, loadProfiles } from '../../../src/commands/fields/backend-profiles.js';
import { findKind } from '../../../adapters/registry.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { anthropicMessage } from '../../helpers/mock-anthropic.js';
import { geminiResponse } from '../../helpers/mock-gemini.js';
import { startMockUpstream } from '../../helpers/mock-upstream.js';

const answer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'model-a',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
};

function chatRequest(): NeutralRequest {
  const request = emptyRequest('chat', 'model-a');
  request.messages = [{ role: 'user', content: 'Hi' }];
  request.limits.maxTokens = 5;
  request.sampling.temperature = 0.5;
  return request;
}

const remote = DEFAULT_PROFILES.filter((profile) => profile.settings.kind !== 'llama-cpp');

describe('backend profiles', () => {
  it.each(remote.map((profile) => [profile.name, profile] as const))(
    '%s: the table builds the body its adapter sends',
    async (_name, profile) => {
      // Each kind reads its own wire: Anthropic answers a message, Gemini a GenerateContentResponse, the others a chat completion.
      const { kind } = profile.settings;
      const upstream = await startMockUpstream({
        json: kind === 'anthropic' ? anthropicMessage() : kind === 'gemini' ? geminiResponse() : answer,
      });
      const settings = { ...profile.settings, url: upstream.url };
      const adapter = await findKind(profile.settings.kind)!.create(profile.name, settings);
      try {
        await adapter.complete(chatRequest(), { signal: new AbortController().signal, requestId: 'r1' });
        const [loaded] = await loadProfiles([{ name: profile.name, settings }]);
        expect(upstream.requests[0].body).toEqual(loaded.toWire(chatRequest()));
      } finally {
        await adapter.close?.();
        await upstream.close();
      }
    },
  );

  it('reads capabilities from the adapter each kind builds', async () => {
    const [loaded] = await loadProfiles([
      { name: 'fw', settings: { kind: 'fireworks', url: 'http://backend.invalid/v1', maxTopLogprobs: 3 } },
    ]);
    expect(loaded.capabilities.maxTopLogprobs).toBe(3);
    expect(loaded.capabilities.speaks).toEqual(['completions', 'chat']);
  });
});
