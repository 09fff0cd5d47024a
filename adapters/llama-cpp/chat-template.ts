/**
 * Chat messages (+ tools) -> one prompt string with the model's own chat
 * template (GGUF `tokenizer.chat_template`), or ChatML when the model has none.
 * Rendering is the pipeline's `renderChatTemplate` (one renderer for the whole
 * proxy); this adds what the model knows: its template, BOS/EOS texts, and
 * whether the tokenizer must still prepend BOS.
 */
import type { Message, ToolDefinition } from '../../src/model/request.js';
import { renderChatTemplate } from '../../src/model/render-chat-template.js';
import type { LlamaModelInfo } from './types.js';

export interface RenderModelChatOptions {
  tools?: ToolDefinition[];
  /** Default true: end with the assistant turn's opening. */
  addGenerationPrompt?: boolean;
  /** Extra template variables, e.g. `{ enable_thinking: false }`. */
  variables?: Record<string, unknown>;
  /** Jinja source overriding the model's (a backend's `chatTemplate` setting). */
  template?: string;
}

export interface RenderedPrompt {
  prompt: string;
  /** Whether the tokenizer should prepend BOS (false when the template wrote it). */
  addBos: boolean;
}

export type ChatTemplateFacts = Pick<LlamaModelInfo, 'chatTemplate' | 'bosToken' | 'eosToken' | 'addBos'>;

/**
 * @example renderModelChat({ addBos: false }, [{ role: 'user', content: 'Hi' }]).prompt
 * // '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n'
 */
export function renderModelChat(
  model: ChatTemplateFacts,
  messages: readonly Message[],
  options: RenderModelChatOptions = {},
): RenderedPrompt {
  const template = options.template ?? model.chatTemplate;
  const prompt = renderChatTemplate(messages, {
    ...(template ? { template } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    ...(model.bosToken ? { bosToken: model.bosToken } : {}),
    ...(model.eosToken ? { eosToken: model.eosToken } : {}),
    ...(options.addGenerationPrompt !== undefined ? { addGenerationPrompt: options.addGenerationPrompt } : {}),
    ...(options.variables ? { variables: options.variables } : {}),
  });
  const bos = model.bosToken;
  return { prompt, addBos: model.addBos && !(bos && prompt.startsWith(bos)) };
}
