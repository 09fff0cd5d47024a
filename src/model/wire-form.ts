/**
 * Families of wire bodies: within one, fields of the same name have the same
 * form. A dialect speaks one, each backend endpoint takes one; the translation
 * report says a field changed form only where the two differ.
 */
export type WireForm = 'openai' | 'openai-responses' | 'anthropic-messages' | 'gemini';

/** Where a backend endpoint's wire carries the conversation: its turns and its system turn (a text endpoint: both in `prompt`). */
export interface ConversationWire {
  form: WireForm;
  turns: string;
  system: string;
}
