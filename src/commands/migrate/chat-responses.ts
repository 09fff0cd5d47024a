/**
 * A request moved between OpenAI's two APIs: a Chat Completions body as the
 * Responses body it would become (`chatToResponses`), and back
 * (`responsesToChat`), with every change on the way, in the shape of the
 * translation report's changes (pipeline/translation-report.ts):
 *
 *  - renamed:   the same value under another name (max_completion_tokens -> max_output_tokens)
 *  - converted: the same meaning in another form (messages -> instructions + input items,
 *               the tools' nesting, response_format -> text.format); lossy when approximated
 *  - dropped:   no counterpart (stop, seed, n > 1, previous_response_id...); lossy, except
 *               for a value that only restates the default (n: 1, modalities ["text"]) or
 *               bookkeeping the other API does not read (an output item's id and status)
 *
 * Both functions are pure: no I/O, the input is not modified. They expect a body
 * the source dialect accepts (`dialect-proxy translate --as` checks it first)
 * and write one the target dialect accepts; each wire field of either dialect
 * has a rule below (the tables are typed by the dialects' field lists, so a
 * field added to a dialect does not compile until it has one).
 */
export { chatToResponses } from './chat-to-responses.js';
export { migrationVerdict, MIN_OUTPUT_TOKENS, type Migration, type MigrationVerdict } from './migration.js';
export { responsesToChat } from './responses-to-chat.js';
