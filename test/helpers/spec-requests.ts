/**
 * Valid request bodies sampled from a reference OpenAPI document: the request
 * schema with every `$ref` it reaches (as JSON Schema `$defs`), sampled by
 * json-schema-faker with a fixed seed, each body then checked against the
 * same schema with Ajv. What the documents state only in prose is applied by
 * hand (applyProse), each rule quoting the words it follows.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, Options } from 'ajv';
import { createGeneratorSync, type JsonSchema } from 'json-schema-faker';
import { parse } from 'yaml';

type Json = Record<string, unknown>;

// Ajv and ajv-formats are CommonJS whose default export is the module itself.
const require = createRequire(import.meta.url);
const Ajv = require('ajv') as new (options: Options) => AjvClass;
const Ajv2020 = require('ajv/dist/2020') as new (options: Options) => AjvClass;
const addFormats = require('ajv-formats') as (ajv: AjvClass) => AjvClass;

export interface SpecSampler {
  /** Ranges the document states in prose only (Fireworks: "Required range: `0 <= x <= 1`"), by top-level field. */
  ranges: Readonly<Record<string, readonly [number, number]>>;
  /** Whether a body is valid for the document's own schema (Ajv's first error otherwise). */
  check(body: unknown): string | undefined;
  /** `count` bodies, the same for the same seed. */
  sample(count: number, seed: number): Json[];
}

/** OpenAPI's `nullable` as JSON Schema (null allowed), and nothing the sampler or Ajv must not read. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const record = node as Json;
  if (record.nullable === true) {
    const { nullable: _nullable, ...rest } = record;
    return { anyOf: [toJsonSchema(rest), { type: 'null' }] };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) {
    if (
      key === 'nullable' ||
      key === 'discriminator' ||
      key === 'deprecated' ||
      key === 'example' ||
      key === 'examples' ||
      key.startsWith('x-')
    )
      continue;
    out[key] = key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', '#/$defs/') : toJsonSchema(value);
  }
  return out;
}

/** The request schema `name` of an OpenAPI document, with every component it reaches. */
export function specSampler(file: string, name: string): SpecSampler {
  const document = parse(readFileSync(file, 'utf8')) as Json;
  const schemas = (document.components as Json).schemas as Json;
  const defs: Json = {};
  const queue = [name];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const next = queue.shift() as string;
    if (!(next in schemas)) throw new Error(`${file}: no schema ${next}`);
    defs[next] = toJsonSchema(schemas[next]);
    JSON.stringify(schemas[next], (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const ref = value.slice('#/components/schemas/'.length);
        if (!seen.has(ref)) {
          seen.add(ref);
          queue.push(ref);
        }
      }
      return value;
    });
  }
  const schema = { $ref: `#/$defs/${name}`, $defs: defs };
  const ajv = String(document.openapi).startsWith('3.1') ? new Ajv2020({ strict: false }) : new Ajv({ strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const ranges: Record<string, [number, number]> = {};
  for (const [field, property] of Object.entries(((schemas[name] as Json).properties ?? {}) as Record<string, Json>)) {
    const range = /Required range: `(-?[\d.]+) <= x <= (-?[\d.]+)`/.exec(String(property.description ?? ''));
    if (range) ranges[field] = [Number(range[1]), Number(range[2])];
  }
  return {
    ranges,
    check(body) {
      return validate(body) ? undefined : `${validate.errors?.[0]?.instancePath} ${validate.errors?.[0]?.message}`;
    },
    sample(count, seed) {
      const generator = createGeneratorSync({
        seed,
        optionalsProbability: 0.3,
        maxItems: 3,
        maxLength: 24,
        refDepthMin: 0,
        refDepthMax: 12,
        maxDepth: 12,
      });
      return Array.from({ length: count }, () => generator.generate(schema as JsonSchema) as Json);
    },
  };
}

const isSet = (value: unknown): boolean => value !== null && value !== undefined;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64." */
function functionName(name: unknown, fallback: string): string {
  const clean = typeof name === 'string' ? name.replace(/[^a-zA-Z0-9_-]/g, '').slice(0, 64) : '';
  return clean || fallback;
}

function toolName(tool: unknown): string | undefined {
  if (!isRecord(tool)) return undefined;
  const holder = isRecord(tool.function) ? tool.function : isRecord(tool.custom) ? tool.custom : tool;
  return typeof holder.name === 'string' ? holder.name : undefined;
}

/**
 * What the specs say in prose, applied to a sampled chat body (OpenAI's
 * CreateChatCompletionRequest, 2.3.0 and newest, and Fireworks' ChatCompletionRequest):
 */
export function applyChatProse(body: Json): Json {
  countsOfTokens(body);
  fireworksProse(body);
  // top_logprobs: "`logprobs` must be set to `true` if this parameter is used."
  if (isSet(body.top_logprobs)) body.logprobs = true;
  // stream_options: "Only set this when you set `stream: true`."
  if (isSet(body.stream_options) && body.stream !== true) delete body.stream_options;
  // max_tokens: "now deprecated in favor of `max_completion_tokens`" (one limit, not two); Fireworks:
  // max_completion_tokens "Cannot be specified together with max_tokens."
  if (isSet(body.max_tokens) && isSet(body.max_completion_tokens)) delete body.max_tokens;
  // functions: "Deprecated in favor of `tools`"; function_call: "Deprecated in favor of `tool_choice`".
  if (isSet(body.tools) && isSet(body.functions)) delete body.functions;
  if (isSet(body.tool_choice) && isSet(body.function_call)) delete body.function_call;
  // FunctionObject.name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
  // length of 64" (also the functions' names); tool names are unique ("the tool to call" by name).
  const names = new Set<string>();
  const unique = (name: unknown, i: number) => {
    let out = functionName(name, `tool_${i}`);
    while (names.has(out)) out = `${out}_${i}`;
    names.add(out);
    return out;
  };
  if (Array.isArray(body.tools)) {
    body.tools.forEach((tool, i) => {
      if (!isRecord(tool)) return;
      const holder = isRecord(tool.function) ? tool.function : isRecord(tool.custom) ? tool.custom : undefined;
      if (holder) holder.name = unique(holder.name, i);
    });
  }
  if (Array.isArray(body.functions))
    body.functions.forEach((fn, i) => {
      if (isRecord(fn)) fn.name = unique(fn.name, i);
    });
  // tool_choice: "`none` is the default when no tools are present"; a named choice "forces the model to
  // call that tool" (a declared one, of its type); allowed_tools lists "tool definitions" of the request.
  const declared = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  const choice = body.tool_choice;
  if (isSet(choice) && declared.length === 0) delete body.tool_choice;
  else if (isRecord(choice) && (choice.type === 'function' || choice.type === 'custom')) {
    const match = declared.find((tool) => tool.type === choice.type && toolName(tool) !== undefined);
    if (match && isRecord(choice[choice.type])) choice[choice.type] = { name: toolName(match) };
    else if (match && typeof choice.name === 'string') choice.name = toolName(match);
    else if (!match) delete body.tool_choice;
  } else if (isRecord(choice) && choice.type === 'allowed_tools' && isRecord(choice.allowed_tools)) {
    choice.allowed_tools.tools = declared
      .slice(0, 1)
      .map((tool) =>
        tool.type === 'custom'
          ? { type: 'custom', custom: { name: toolName(tool) } }
          : { type: 'function', function: { name: toolName(tool) } },
      );
  }
  // function_call: "`none` is the default when no functions are present"; `{"name": ...}` names one of them.
  const functions = Array.isArray(body.functions) ? body.functions.filter(isRecord) : [];
  if (isSet(body.function_call) && functions.length === 0) delete body.function_call;
  else if (isRecord(body.function_call)) body.function_call = { name: functions[0].name };
  // logit_bias: "maps tokens (specified by their token ID in the tokenizer) to an associated bias value from -100 to 100."
  if (isRecord(body.logit_bias)) {
    body.logit_bias = Object.fromEntries(
      Object.values(body.logit_bias).map((bias, i) => [String(100 + i), Math.max(-100, Math.min(100, Math.round(Number(bias) || 0)))]),
    );
  }
  // Metadata: "Keys are strings with a maximum length of 64 characters. Values are strings with a maximum length of 512 characters."
  if (Array.isArray(body.messages)) body.messages = body.messages.map(applyMessageProse);
  return body;
}

/**
 * Assistant `content`: "Required unless `tool_calls` or `function_call` is specified."
 * `function_call`: "Deprecated and replaced by `tool_calls`" (one or the other).
 */
function applyMessageProse(message: unknown): unknown {
  if (!isRecord(message) || message.role !== 'assistant') return message;
  if (isSet(message.tool_calls) && isSet(message.function_call)) delete message.function_call;
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  if (!isSet(message.content) && calls.length === 0 && !isSet(message.function_call)) message.content = 'Done.';
  return message;
}

/** A document's prose ranges ("Required range: `0 <= x <= 1`"), applied by clamping. */
export function applyRanges(body: Json, ranges: SpecSampler['ranges']): Json {
  for (const [field, [low, high]] of Object.entries(ranges)) {
    const value = body[field];
    if (typeof value === 'number') body[field] = Math.min(high, Math.max(low, value));
  }
  return body;
}

/**
 * Token counts are counts: OpenAI's `max_completion_tokens` is "An upper bound for the number of
 * tokens that can be generated", `max_tokens` "The maximum number of tokens"; Fireworks' `max_tokens`
 * "The maximum number of tokens to generate" (a negative one is a sampler's artefact, not a limit).
 */
function countsOfTokens(body: Json): void {
  for (const field of ['max_tokens', 'max_completion_tokens']) {
    if (typeof body[field] === 'number') body[field] = Math.abs(body[field] as number);
  }
}

/** Fireworks' words on fields both its requests share. */
function fireworksProse(body: Json): void {
  // reasoning_effort: "**Integer** (Fireworks extension): A positive integer to set a hard token limit on reasoning output".
  if (typeof body.reasoning_effort === 'number' && body.reasoning_effort < 1) body.reasoning_effort = 1 + Math.abs(body.reasoning_effort);
  // logprobs: "If set to an integer N (0-5)... The maximum value for the integer form is 5."
  if (typeof body.logprobs === 'number') body.logprobs = Math.min(5, Math.max(0, body.logprobs));
  // thinking.budget_tokens: "Must be >= 1024 if specified."
  if (isRecord(body.thinking) && typeof body.thinking.budget_tokens === 'number' && body.thinking.budget_tokens < 1024)
    body.thinking.budget_tokens = 1024;
}

/** What Fireworks' CompletionRequest says in prose. */
export function applyCompletionProse(body: Json): Json {
  countsOfTokens(body);
  fireworksProse(body);
  // max_completion_tokens: "Alias for max_tokens. Cannot be specified together with max_tokens."
  if (isSet(body.max_tokens) && isSet(body.max_completion_tokens)) delete body.max_tokens;
  // stream_options: only with `stream: true` (the seed: "Options for streaming response. Only set this when you set stream: true").
  if (isSet(body.stream_options) && body.stream !== true) delete body.stream_options;
  // top_logprobs: logprobs "must be set to true if this parameter is used" (as in OpenAI's), or an integer.
  if (isSet(body.top_logprobs) && body.logprobs !== true && typeof body.logprobs !== 'number') body.logprobs = true;
  // echo_last: "echo back the last N tokens of the prompt"; with echo: true it is the whole prompt, so not both.
  if (body.echo === true && isSet(body.echo_last)) delete body.echo_last;
  // mirostat_lr: "Learning rate for Mirostat sampling. Only applicable if mirostat_target is set" (the seed).
  if (isSet(body.mirostat_lr) && !isSet(body.mirostat_target)) delete body.mirostat_lr;
  // logit_bias: token ids to biases (OpenAI's words, which Fireworks' field repeats).
  if (isRecord(body.logit_bias)) {
    body.logit_bias = Object.fromEntries(
      Object.values(body.logit_bias).map((bias, i) => [String(100 + i), Math.max(-100, Math.min(100, Math.round(Number(bias) || 0)))]),
    );
  }
  return body;
}
