/**
 * vLLM's response extensions with `return_token_ids`: `token_ids` on each choice
 * (each chunk's own in a stream) and the prompt's `prompt_token_ids`, on the
 * choice for completions and at the top of a chat response or first chat chunk
 * (protocol.py: CompletionResponseChoice, ChatCompletionResponse, *StreamResponse).
 */
import type { ChoiceExtras, WireExtras } from '../openai/wire-extras.js';

export const vllmExtras: WireExtras = {
  readChoice(choice, body) {
    const extras: ChoiceExtras = {};
    const tokenIds = ids(choice.token_ids);
    if (tokenIds) extras.tokenIds = tokenIds;
    const promptTokenIds = ids(choice.prompt_token_ids) ?? ids(body.prompt_token_ids);
    if (promptTokenIds) extras.promptTokenIds = promptTokenIds;
    return extras;
  },
};

function ids(value: unknown): number[] | undefined {
  return Array.isArray(value) && value.every((id) => typeof id === 'number') ? value : undefined;
}

