/**
 * A family of wire bodies, by a name its members share (`openai` for OpenAI's chat and completions bodies,
 * `anthropic-messages`): within one, fields of the same name have the same form. A dialect speaks one
 * (`DialectWire.form`), each backend endpoint takes one (`ConversationWire.form`); the translation report
 * says a field changed form only where the two differ. Each side names its own, so a new family is a new
 * name where it is spoken, not an entry in a list here.
 */
export type WireForm = string;

/** Where a backend endpoint's wire carries the conversation: its turns and its system turn (a text endpoint: both in `prompt`). */
export interface ConversationWire {
  form: WireForm;
  turns: string;
  system: string;
}
