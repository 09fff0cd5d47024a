/**
 * Response ids carry their object's prefix (`chatcmpl-` for chat, `cmpl-` for
 * completions, `resp_` for a Responses answer, whose items add their own:
 * `msg_`, `rs_`, `fc_`; `msg_` for an Anthropic message). A translated chat or completions answer keeps the
 * backend's id with the prefix swapped, so logs on both sides still match; a
 * Responses answer is named by the proxy (a stored id must be unguessable and
 * unique, whatever the upstream sends).
 */
const prefixes = { chat: 'chatcmpl-', text: 'cmpl-' } as const;

export function responseId(id: string, endpoint: keyof typeof prefixes): string {
  const wanted = prefixes[endpoint];
  if (id.startsWith(wanted)) return id;
  // Another API's prefix is swapped (an Anthropic backend's `msg_`); an id with none is kept as it came.
  const base = idBase(id);
  return base === id ? id : wanted + base;
}

/** The backend's id without a chat, completions or Responses prefix: what a Responses answer and its items are named after. */
export function idBase(id: string): string {
  return id.replace(/^(chatcmpl-|cmpl-|resp_|msg_)/, '');
}
