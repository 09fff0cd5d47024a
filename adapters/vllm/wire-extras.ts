/**
 * vLLM's response extensions with `return_token_ids`: `token_ids` on each choice
 * (each chunk's own in a stream) and the prompt's `prompt_token_ids`, on the
 * choice for completions and at the top of a chat response or first chat chunk
 * (protocol.py: CompletionResponseChoice, ChatCompletionResponse, *StreamResponse).
 */
import { tokenIdList, type ChoiceExtras, type WireExtras } from '../openai/wire-extras.js';

export const vllmExtras: WireExtras = {
  readChoice(choice, body) {
    const extras: ChoiceExtras = {};
    const tokenIds = tokenIdList(choice.token_ids);
    if (tokenIds) extras.tokenIds = tokenIds;
    const promptTokenIds = tokenIdList(choice.prompt_token_ids) ?? tokenIdList(body.prompt_token_ids);
    if (promptTokenIds) extras.promptTokenIds = promptTokenIds;
    return extras;
  },
};
