/**
 * Response ids carry their object's prefix (`chatcmpl-` for chat, `cmpl-` for
 * completions, `resp_` for a Responses answer, whose items add their own:
 * `msg_`, `rs_`, `fc_`). A translated chat or completions answer keeps the
 * backend's id with the prefix swapped, so logs on both sides still match; a
 * Responses answer is named by the proxy (a stored id must be unguessable and
 * unique, whatever the upstream sends).
 */
const prefixes = { chat: 'chatcmpl-', text: 'cmpl-' } as const;

export function responseId(id: string, endpoint: keyof typeof prefixes): string {
  const wanted = prefixes[endpoint];
  if (id.startsWith(wanted)) return id;
  const other = prefixes[endpoint === 'chat' ? 'text' : 'chat'];
  return id.startsWith(other) ? wanted + id.slice(other.length) : id;
}

/** The backend's id without a chat, completions or Responses prefix: what a Responses answer and its items are named after. */
export function idBase(id: string): string {
  return id.replace(/^(chatcmpl-|cmpl-|resp_)/, '');
}
