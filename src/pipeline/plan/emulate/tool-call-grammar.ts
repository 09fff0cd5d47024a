/**
 * A GBNF grammar that makes a model answer with Hermes-style tool calls only:
 * how `tool_choice: required` (or a named function) is enforced when the proxy
 * renders the prompt for a completions backend that takes grammars. Each call's
 * arguments follow its tool's `parameters` in a canonical shape: what tool
 * schemas use (objects with properties and `required`, strings, numbers,
 * integers, booleans, null, enum, const, arrays, type lists) is enforced, with
 * declared properties only, required ones first, and bounded sizes; any other
 * part (anyOf, $ref, patterns, free-form objects) admits any bounded JSON value.
 *
 * Each schema node is walked once per type and its rule shared by name, so the
 * grammar grows linearly with the schema (a `type` list of k objects nested
 * nine deep must not make k^9 rules); a budget in bytes and time, decided
 * before the work starts, ends it with a 400 naming the caller's field.
 */
import { DEFAULT_LIMITS } from '../../../config/settings.js';
import { limitExceeded } from '../../../errors/catalogue.js';
import { isRecord } from '../../../model/is-record.js';

export interface GrammarTool {
  name: string;
  parameters?: Record<string, unknown>;
  /**
   * A custom tool carried as a function (custom-tools.ts): a GBNF expression for its input
   * as written inside a JSON string (regex-gbnf.ts); the arguments are then `{"input": "<that>"}`.
   */
  inputGrammar?: string;
}

/** What building one grammar may cost (`limits.grammarBytes`, `limits.grammarMs`). */
export interface GrammarBudget {
  bytes: number;
  ms: number;
}

export interface ToolCallGrammarOptions {
  /** One call only (a named function, or `parallel_tool_calls: false`). */
  single: boolean;
  /** Past it, a 400 `limit_exceeded`; by default DEFAULT_LIMITS'. */
  budget?: GrammarBudget;
  /** The caller's field named by that 400. */
  param?: string;
}

export function toolCallGrammar(tools: readonly GrammarTool[], options: ToolCallGrammarOptions): string {
  const rules = new Rules(options.budget ?? { bytes: DEFAULT_LIMITS.grammarBytes, ms: DEFAULT_LIMITS.grammarMs }, options.param ?? 'tools');
  const calls = tools.map((tool, i) => {
    const args =
      tool.inputGrammar !== undefined
        ? rules.add(`args${i}`, `"{" ws "\\"input\\"" ws ":" ws "\\"" ( ${tool.inputGrammar} ) "\\"" ws "}" ws`)
        : tool.parameters
          ? schemaRule(tool.parameters, `args${i}`, rules, 0)
          : 'object';
    return rules.add(
      `call${i}`,
      `"<tool_call>\\n{\\"name\\": " ${gbnfString(JSON.stringify(tool.name))} ", \\"arguments\\": " ${args} "}\\n</tool_call>"`,
    );
  });
  const grammar = [
    // At most 16 calls in a turn: the grammar itself ends every answer.
    `root ::= call${options.single ? '' : ' ( "\\n" call ){0,15}'}`,
    `call ::= ${calls.join(' | ')}`,
    ...rules.lines(),
    // Bounded, so that no model can run on forever inside the arguments.
    'object ::= "{" ws ( string ":" ws value ( "," ws string ":" ws value ){0,15} )? "}" ws',
    'value ::= object | array | string | number | boolean | null',
    'array ::= "[" ws ( value ( "," ws value ){0,31} )? "]" ws',
    'string ::= "\\"" ( [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F]{4} ) ){0,256} "\\"" ws',
    'number ::= "-"? ( [0-9] | [1-9] [0-9]* ) ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )? ws',
    'integer ::= "-"? ( [0-9] | [1-9] [0-9]{0,17} ) ws',
    'boolean ::= ( "true" | "false" ) ws',
    'null ::= "null" ws',
    // At most one space: a model must not be able to pad forever.
    'ws ::= " "?',
  ].join('\n');
  return rules.checked(grammar);
}

/** The rules so far, their size and the time taken, checked against the budget as they grow. */
class Rules {
  private readonly bodies = new Map<string, string>();
  /** Each schema node's rule per type and depth: a node reached again (a `type` list) is not walked again. */
  private readonly built = new WeakMap<object, Map<string, string>>();
  private readonly started = performance.now();
  private visits = 0;
  private size = 0;

  constructor(
    private readonly budget: GrammarBudget,
    private readonly param: string,
  ) {}

  add(name: string, body: string): string {
    this.fits(name.length + body.length + 5);
    this.size += name.length + body.length + 5;
    this.bodies.set(name, body);
    return name;
  }

  /** The rule for `node` under `key`, built the first time only. */
  shared(node: object, key: string, build: () => string): string {
    let byKey = this.built.get(node);
    if (!byKey) this.built.set(node, (byKey = new Map()));
    const known = byKey.get(key);
    if (known !== undefined) return known;
    const name = build();
    byKey.set(key, name);
    return name;
  }

  /** Throws the 400 if `more` bytes would not fit. */
  fits(more: number): void {
    if (this.size + more > this.budget.bytes) {
      throw limitExceeded(
        this.param,
        `the grammar that holds tool calls to the tools' parameters would exceed ${this.budget.bytes} bytes`,
        'limits.grammarBytes',
      );
    }
  }

  /** Counts a schema node; every 256, looks at the clock. */
  visit(): void {
    if (++this.visits % 256 === 0 && performance.now() - this.started > this.budget.ms) {
      throw limitExceeded(
        this.param,
        `building the grammar that holds tool calls to the tools' parameters would take over ${this.budget.ms} ms`,
        'limits.grammarMs',
      );
    }
  }

  lines(): string[] {
    return [...this.bodies].map(([name, body]) => `${name} ::= ${body}`);
  }

  /** The whole grammar, measured in bytes once (the rules were counted in UTF-16 units as they came). */
  checked(grammar: string): string {
    this.size = Buffer.byteLength(grammar);
    this.fits(0);
    return grammar;
  }
}

/** Nesting deeper than this admits any value (a recursive schema must not make the grammar endless). */
const maxDepth = 8;
/** Objects with more declared properties admit any object (the no-required form grows with their square). */
const maxProperties = 24;

const primitives: Record<string, string> = { string: 'string', number: 'number', integer: 'integer', boolean: 'boolean', null: 'null' };

/** The name of a rule for values of `schema` (followed by optional whitespace), adding the rules it needs. */
function schemaRule(schema: unknown, name: string, rules: Rules, depth: number): string {
  rules.visit();
  if (!isRecord(schema) || depth > maxDepth) return 'value';
  if ('const' in schema) return rules.add(name, `${literal(schema.const)} ws`);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return rules.add(name, `( ${schema.enum.map(literal).join(' | ')} ) ws`);
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? (isRecord(schema.properties) ? 'object' : undefined)];
  if (types.length > 1) {
    const alternatives = types.map((type, i) => typedRule(schema, type, `${name}-${i}`, rules, depth));
    // A type named twice is one alternative.
    return alternatives.includes('value') ? 'value' : rules.add(name, [...new Set(alternatives)].join(' | '));
  }
  return typedRule(schema, types[0], name, rules, depth);
}

/** Values of `schema` read as one `type` (a type list is not nested: any other entry admits any value). */
function typedRule(schema: Record<string, unknown>, type: unknown, name: string, rules: Rules, depth: number): string {
  if (type === 'object') return rules.shared(schema, `object ${depth}`, () => objectRule(schema, name, rules, depth));
  if (type === 'array') {
    return rules.shared(schema, `array ${depth}`, () => {
      const item = schemaRule(schema.items, `${name}-item`, rules, depth + 1);
      return rules.add(name, `"[" ws ( ${item} ( "," ws ${item} ){0,31} )? "]" ws`);
    });
  }
  // Own keys only: `toString` is no type.
  return typeof type === 'string' && Object.hasOwn(primitives, type) ? primitives[type] : 'value';
}

/**
 * Declared properties only, required ones first and always present, optional
 * ones after them in declared order. An object without declared properties, or
 * one that allows others, admits any object.
 */
function objectRule(schema: Record<string, unknown>, name: string, rules: Rules, depth: number): string {
  const properties = isRecord(schema.properties) ? Object.entries(schema.properties) : [];
  if (
    properties.length === 0 ||
    properties.length > maxProperties ||
    (schema.additionalProperties !== undefined && schema.additionalProperties !== false)
  )
    return 'object';
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const pair = ([key, value]: [string, unknown], i: number) =>
    `${gbnfString(JSON.stringify(key))} ws ":" ws ${schemaRule(value, `${name}-${i}`, rules, depth + 1)}`;
  const pairs = properties.map((property, i) => ({ text: pair(property, i), required: required.has(property[0]) }));
  const mandatory = pairs.filter((p) => p.required).map((p) => p.text);
  const optional = pairs.filter((p) => !p.required).map((p) => p.text);
  if (mandatory.length > 0) {
    const rest = optional.map((text) => ` ( "," ws ${text} )?`).join('');
    return rules.add(name, `"{" ws ${mandatory.join(' "," ws ')}${rest} "}" ws`);
  }
  // No required property: any in-order subset, the first one chosen without a comma before it.
  // Its size grows with the square of the properties: measured before it is written.
  rules.fits(optional.reduce((sum, text, i) => sum + (i + 1) * (text.length + 12), 0));
  const subsets = optional.map(
    (text, i) =>
      `${text}${optional
        .slice(i + 1)
        .map((later) => ` ( "," ws ${later} )?`)
        .join('')}`,
  );
  return rules.add(name, `"{" ws ( ${subsets.map((subset) => `( ${subset} )`).join(' | ')} )? "}" ws`);
}

/** A GBNF literal matching exactly the JSON text of `value`. */
function literal(value: unknown): string {
  return gbnfString(JSON.stringify(value) ?? 'null');
}

/** A GBNF string literal for a piece of text. */
function gbnfString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
