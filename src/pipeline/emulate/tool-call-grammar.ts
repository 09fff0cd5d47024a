/**
 * A GBNF grammar that makes a model answer with Hermes-style tool calls only:
 * how `tool_choice: required` (or a named function) is enforced when the proxy
 * renders the prompt for a completions backend that takes grammars. Arguments
 * are any JSON object (llama.cpp's json.gbnf rules).
 */
export function toolCallGrammar(names: readonly string[], options: { single: boolean }): string {
  const name = names.map((value) => gbnfString(JSON.stringify(value))).join(' | ');
  return [
    `root ::= call${options.single ? '' : ' ("\\n" call)*'}`,
    `call ::= "<tool_call>\\n{\\"name\\": " name ", \\"arguments\\": " object "}\\n</tool_call>"`,
    `name ::= ${name}`,
    // Bounded, so that no model can run on forever inside the arguments.
    'object ::= "{" ws ( string ":" ws value ( "," ws string ":" ws value ){0,15} )? "}"',
    'value ::= ( object | array | string | number | "true" | "false" | "null" ) ws',
    'array ::= "[" ws ( value ( "," ws value ){0,31} )? "]"',
    'string ::= "\\"" ( [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F]{4} ) ){0,256} "\\"" ws',
    'number ::= "-"? ( [0-9] | [1-9] [0-9]* ) ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )? ws',
    // At most one space: a model must not be able to pad forever.
    'ws ::= " "?',
  ].join('\n');
}

/** A GBNF string literal for a piece of text. */
function gbnfString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
