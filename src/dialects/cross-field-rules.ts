/**
 * Rules that span request fields, kept in a short list beside each field table
 * so that each row stays about one field. They run before the table, so a conflict is reported as such and the rows may
 * assume a consistent body. Pure: no I/O.
 */
import { invalidRequest } from '../errors/proxy-error.js';
import { isSet } from '../model/is-set.js';
import type { NeutralRequest } from '../model/request.js';

export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface CrossFieldContext {
  body: Readonly<Record<string, unknown>>;
  headers: RequestHeaders;
  request: NeutralRequest;
}

export interface CrossFieldRule {
  /** The wire fields involved (the first is the one an error names, unless said otherwise). */
  fields: readonly string[];
  /** What the rule enforces (printed next to the table). */
  note: string;
  apply(context: CrossFieldContext): void;
}

/**
 * Both set -> 400 naming the second field.
 * @example exclusive('max_tokens', 'max_completion_tokens')
 */
export function exclusive(
  first: string,
  second: string,
  when: (body: CrossFieldContext['body']) => boolean = (body) => isSet(body[first]) && isSet(body[second]),
  message = `${second} cannot be specified together with ${first}.`,
): CrossFieldRule {
  return {
    fields: [second, first],
    note: `${second} cannot be combined with ${first}`,
    apply: ({ body }) => {
      if (when(body)) throw invalidRequest(second, message);
    },
  };
}

/**
 * `field` set while `holds(body)` is false -> 400 naming `field` with `message`.
 * @example requires('stream_options', (body) => body.stream === true, 'stream_options is only allowed when stream is true.')
 */
export function requires(field: string, holds: (body: CrossFieldContext['body']) => boolean, message: string): CrossFieldRule {
  return {
    fields: [field],
    note: message,
    apply: ({ body }) => {
      if (isSet(body[field]) && !holds(body)) throw invalidRequest(field, message);
    },
  };
}

/** The first header value, matched case-insensitively (Node lower-cases them already). */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}

/**
 * Session affinity (which replica of a pool serves the request, adapters/replica-pool.ts):
 * `x-session-affinity` > `x-multi-turn-session-id` > `prompt_cache_key` > `user`. The headers a
 * deployment sets on purpose come before the body fields a client library may fill on its own.
 */
export const affinityKey: CrossFieldRule = {
  fields: ['x-session-affinity', 'x-multi-turn-session-id', 'prompt_cache_key', 'user'],
  note: 'affinityKey from x-session-affinity > x-multi-turn-session-id > prompt_cache_key > user',
  apply: ({ body, headers, request }) => {
    const candidates: [string, unknown][] = [
      ['x-session-affinity', headerValue(headers, 'x-session-affinity')],
      ['x-multi-turn-session-id', headerValue(headers, 'x-multi-turn-session-id')],
      ['prompt_cache_key', body.prompt_cache_key],
      ['user', body.user],
    ];
    const found = candidates.find(([, value]) => typeof value === 'string' && value !== '');
    if (!found) return;
    request.affinityKey = found[1] as string;
    request.origins.affinityKey = found[0];
  },
};

const logprobsOn = (body: CrossFieldContext['body']): boolean => body.logprobs === true || typeof body.logprobs === 'number';

/** The rules both dialects share. */
export const commonCrossFieldRules: readonly CrossFieldRule[] = [
  exclusive('max_tokens', 'max_completion_tokens'),
  // OpenAI: "logprobs must be set to true if this parameter is used"; Fireworks also takes an integer.
  requires('top_logprobs', logprobsOn, 'top_logprobs requires logprobs to be set to true (or to an integer).'),
  requires('stream_options', (body) => body.stream === true, 'stream_options is only allowed when stream is true.'),
  // Fireworks: prediction is "Automatically transformed to speculation": both at once would be two values for one field.
  exclusive(
    'prediction',
    'speculation',
    undefined,
    'speculation together with prediction is not supported by this proxy: prediction becomes speculation, so send one of them.',
  ),
  // Fireworks: echo_last=len(prompt) is the same as echo=true, so both at once is ambiguous.
  exclusive('echo', 'echo_last', (body) => body.echo === true && isSet(body.echo_last)),
  // Fireworks: without mirostat_target, Mirostat is off, so a learning rate alone would do nothing.
  requires(
    'mirostat_lr',
    (body) => isSet(body.mirostat_target),
    'mirostat_lr requires mirostat_target (Mirostat is off without a target).',
  ),
  affinityKey,
];

/** Runs each rule in order; the first failure throws its ProxyError. */
export function applyCrossFieldRules(rules: readonly CrossFieldRule[], context: CrossFieldContext): void {
  for (const rule of rules) rule.apply(context);
}
