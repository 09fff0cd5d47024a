import { choicesAreNative, supports } from '../../../src/backend/capabilities.js';
import { llamaCppCapabilities } from '../../../adapters/llama-cpp/llama-cpp-adapter.js';

describe('llamaCppCapabilities', () => {
  it('generates from prompts (the plan renders chat) and leaves n to the pipeline', () => {
    const capabilities = llamaCppCapabilities();
    expect(capabilities.speaks).toEqual(['completions']);
    expect(choicesAreNative(capabilities)).toBe(false);
    expect(supports(capabilities, 'sampling.typicalP')).toBe(true);
    expect(supports(capabilities, 'sampling.mirostat')).toBe(false);
  });
});
