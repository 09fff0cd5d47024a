/** Builds the adapter for one configured backend; the bundled worker is loaded only when configured. */
import type { BackendSettings } from '../src/configuration.js';
import type { Adapter } from './adapter.js';
import { createFireworksAdapter } from './fireworks/fireworks-adapter.js';
import { createLlamaServerAdapter } from './llama-server/llama-server-adapter.js';
import { createOpenAIAdapter } from './openai/openai-adapter.js';
import { createVllmAdapter } from './vllm/vllm-adapter.js';

export async function createAdapter(name: string, settings: BackendSettings): Promise<Adapter> {
  switch (settings.kind) {
    case 'openai':
      return createOpenAIAdapter({ ...settings, kind: 'openai' }, { name });
    case 'fireworks':
      return createFireworksAdapter({ ...settings, kind: 'fireworks' }, { name });
    case 'llama-server':
      return createLlamaServerAdapter(settings, { name, jinja: settings.jinja });
    case 'vllm':
      return createVllmAdapter(settings, { name });
    case 'llama-cpp': {
      const { createLlamaCppAdapter } = await import('./llama-cpp/llama-cpp-adapter.js');
      return createLlamaCppAdapter(name, settings);
    }
  }
}
