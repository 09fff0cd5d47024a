/**
 * node-llama-cpp 3.21's JSON-schema grammar lets an "integer" carry an exponent
 * (`-101e-20`), which is not an integer: the rule is redefined without one.
 */
export function withIntegersOnly(grammar: string): string {
  return grammar.replace(/^integer-number-rule ::= .*$/m, 'integer-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,15})');
}
