/** The caller dialects the proxy serves, each on its own path (or URLs: Gemini's carry the model). A new dialect is one folder here and one line in this list. */
import { anthropicMessagesDialect } from './anthropic-messages/index.js';
import type { Dialect } from './dialect.js';
import { fireworksCompletionsDialect } from './fireworks-completions/index.js';
import { geminiDialect } from './gemini/index.js';
import { openaiChatDialect } from './openai-chat/index.js';
import { openaiResponsesDialect } from './openai-responses/index.js';

export const DIALECTS: readonly Dialect[] = [
  openaiChatDialect,
  fireworksCompletionsDialect,
  openaiResponsesDialect,
  anthropicMessagesDialect,
  geminiDialect,
];
