/**
 * The migration aid as functions: what a backend would get for a request body
 * and every change on the way (pipeline/translation-report.ts), without
 * sending anything or loading a model. The target is a config's routes, or a
 * default backend of one kind (its documented defaults, as `dialect-proxy
 * fields` assumes them).
 */
import { findKind, BACKEND_KINDS } from '../../adapters/registry.js';
import type { SpokenEndpoint } from '../backend/adapter.js';
import type { ProxyConfig } from '../runtime/configuration.js';
import type { Dialect } from '../dialects/dialect.js';
import type { NeutralRequest } from '../model/request.js';
import { DIALECTS } from '../dialects/registry.js';
import { invalidRequest, toProxyError, type ProxyError } from '../errors/proxy-error.js';
import { createBackends } from '../runtime/create-runtime.js';
import { parseCallerRequest } from '../pipeline/request/parse-caller-request.js';
import { RouteTable, type Backend, type RouteMatch } from '../pipeline/plan/route-table.js';
import { closeBackends } from '../pipeline/runtime.js';
import { assessTranslation, type Change, type TranslationReport, type Verdict } from '../pipeline/report/translation-report.js';
import { createRequestValidator, type RequestValidator } from '../validation/create-validator.js';
import { isRecord } from '../model/is-record.js';
import { dialectOfBody } from '../dialects/dialect-of-body.js';

export type { Change, ChangeAction, TranslationReport, Verdict } from '../pipeline/report/translation-report.js';

/** A config's routes (the first backend of the matching route), or a default backend of one kind. */
export type TranslateTarget = { config: ProxyConfig } | { kind: string; speaks?: SpokenEndpoint[] };

/** The caller's dialect by its `shortName`: `chat`, `completions`, `responses`, `messages`, `gemini`. */
export type CallerEndpoint = string;

export const CALLER_ENDPOINTS: readonly CallerEndpoint[] = DIALECTS.map(({ shortName }) => shortName);

/** A translated request, or the refusal of a request the caller's dialect does not accept (`invalid`). */
export type Translation =
  | { verdict: Verdict; dialect: Dialect; report: TranslationReport }
  | { verdict: 'invalid'; dialect: Dialect; error: { status: number; body: Record<string, unknown> } };

export interface Translator {
  /** What the target does with one body (already read as JSON, or the text to read). Never throws a ProxyError. */
  translate(body: unknown, options?: { endpoint?: CallerEndpoint; model?: string }): Promise<Translation>;
  /**
   * The same for a request parsed already (`parseBody`): several targets share one parse. With `refused`
   * (what `withoutRefusedFields` took out, and the first parse's error), the request is rejected, those first.
   */
  assess(parsed: ParsedBody & { request: NeutralRequest }, refused?: Refused): Promise<Translation>;
  /** A route match for a parsed request (for callers that run the plan themselves: `translate --responses`); throws a 404 for a model no route serves. */
  match(model: string): RouteMatch;
  readonly validator: RequestValidator;
  /** Closes the backends built for the target (nothing was started). */
  close(): Promise<void>;
}

/** Fields the dialect refused, taken out (`withoutRefusedFields`), and the error a real request would get. */
export interface Refused {
  changes: Change[];
  error: NonNullable<ParsedBody['error']>;
}

/** A body read and parsed in its dialect, or the dialect's refusal. */
export interface ParsedBody {
  dialect: Dialect;
  body: Record<string, unknown>;
  request?: NeutralRequest;
  error?: { status: number; body: Record<string, unknown> };
  /** The refusal behind `error`, in the proxy's terms. */
  failure?: ProxyError;
}

/**
 * Reads one body (JSON text or a value) in its dialect: validated against our
 * OpenAPI document and parsed, as the proxy parses a request.
 */
export function parseBody(
  validator: RequestValidator,
  input: unknown,
  options: { endpoint?: CallerEndpoint; model?: string } = {},
): ParsedBody {
  let dialect = dialectFor(options.endpoint, input);
  let body: unknown = input;
  try {
    body = typeof input === 'string' ? readJson(input) : input;
    dialect = dialectFor(options.endpoint, body);
    if (options.model !== undefined && isRecord(body)) body = { ...body, model: options.model };
    return { dialect, body: body as Record<string, unknown>, request: parseCallerRequest(validator, dialect, body) };
  } catch (error) {
    const failure = toProxyError(error);
    if (failure.code === 'internal_error') throw error;
    return { dialect, body: isRecord(body) ? body : {}, error: { status: failure.status, body: dialect.errorBody(failure) }, failure };
  }
}

/** The most fields one report takes out in its search for every refusal the dialect makes. */
const MAX_PARSE_REFUSALS = 64;

/**
 * A valid request whose dialect refuses fields the proxy does not serve (previous_response_id
 * without a store, a hosted tool) is rejected, not malformed: each such field is taken out in
 * turn and the body read again, so every refusal is found, and what the rest becomes.
 * `refused` (for `assess`) when any was taken out, with the first read's error.
 */
export function withoutRefusedFields(validator: RequestValidator, parsed: ParsedBody): { parsed: ParsedBody; refused?: Refused } {
  const refusals: Change[] = [];
  let current = parsed;
  while (
    !current.request &&
    current.failure?.code === 'unsupported_parameter' &&
    current.failure.param &&
    refusals.length < MAX_PARSE_REFUSALS
  ) {
    const { param, message } = current.failure;
    const body = withoutWireField(current.body, param);
    if (!body) break;
    refusals.push({ field: param, action: 'rejected', lossy: true, reason: message });
    current = parseBody(validator, body, { endpoint: endpointOfDialect(current.dialect) });
  }
  return refusals.length && parsed.error ? { parsed: current, refused: { changes: refusals, error: parsed.error } } : { parsed: current };
}

/**
 * The body without the field at a caller's path (`previous_response_id`, `reasoning.summary`); a
 * field inside a list's element takes the element out (`tools[2].type`: the third tool). Undefined
 * when there is no such field.
 */
function withoutWireField(body: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  const parts = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  const element = parts.findIndex((part) => part.startsWith('['));
  const kept = element < 0 ? parts : parts.slice(0, element + 1);
  const copy = structuredClone(body);
  let node: unknown = copy;
  for (const part of kept.slice(0, -1)) {
    node = part.startsWith('[')
      ? Array.isArray(node)
        ? node[Number(part.slice(1, -1))]
        : undefined
      : isRecord(node)
        ? node[part]
        : undefined;
  }
  const last = kept.at(-1);
  if (last === undefined) return undefined;
  if (last.startsWith('[')) {
    const index = Number(last.slice(1, -1));
    if (!Array.isArray(node) || index >= node.length) return undefined;
    node.splice(index, 1);
    return copy;
  }
  if (!isRecord(node) || !(last in node)) return undefined;
  delete node[last];
  return copy;
}

/** What `--speaks` (and the inspector's `speaks`) names: `chat`, `completions` or `both`; undefined for anything else. */
export function speaksNamed(value: string): SpokenEndpoint[] | undefined {
  if (value === 'both') return ['chat', 'completions'];
  return value === 'chat' || value === 'completions' ? [value] : undefined;
}

/** Thrown for a target that does not exist (an unknown kind, a `speaks` the kind does not take). */
export class TargetError extends Error {
  override readonly name = 'TargetError';
}

/**
 * @example
 * const translator = await createTranslator({ kind: 'openai' });
 * const { verdict } = await translator.translate({ model: 'm', prompt: 'Hi', top_k: 5 }); // 'rejected'
 * await translator.close();
 */
export async function createTranslator(target: TranslateTarget): Promise<Translator> {
  const validator = await createRequestValidator();
  let match: (model: string) => RouteMatch;
  let backends: Map<string, Backend>;
  if ('config' in target) {
    backends = await createBackends(target.config, { start: false });
    const routes = new RouteTable(target.config.routes, backends);
    match = (model) => routes.match(model);
  } else {
    const backend = await defaultBackend(target.kind, target.speaks);
    backends = new Map([[backend.name, backend]]);
    match = (model) => ({ backend, upstreamModel: model });
  }
  const assess = async ({ dialect, body, request }: ParsedBody & { request: NeutralRequest }, refused?: Refused): Promise<Translation> => {
    let report: Awaited<ReturnType<typeof assessTranslation>>;
    try {
      report = await assessTranslation({ request, body, dialect, match: match(request.model) });
    } catch (error) {
      const failure = toProxyError(error);
      if (failure.code === 'internal_error') throw error;
      return { verdict: 'invalid', dialect, error: { status: failure.status, body: dialect.errorBody(failure) } };
    }
    if (!refused) return { verdict: report.verdict, dialect, report };
    // The dialect's refusals first; the caller gets the first one, as a real request would.
    const changes = [...refused.changes, ...report.changes];
    return { verdict: 'rejected', dialect, report: { ...report, verdict: 'rejected', changes, error: refused.error } };
  };
  return {
    validator,
    match,
    assess,
    async translate(input, options = {}) {
      const first = parseBody(validator, input, options);
      const { parsed, refused } = withoutRefusedFields(validator, first);
      if (!parsed.request) return { verdict: 'invalid', dialect: first.dialect, error: first.error as NonNullable<ParsedBody['error']> };
      return assess({ ...parsed, request: parsed.request }, refused);
    },
    close: () => closeBackends(backends),
  };
}

/** A backend of one kind with the kind's documented defaults (`speaks` overridden when given). */
export async function defaultBackend(kindName: string, speaks?: SpokenEndpoint[]): Promise<Backend> {
  const kind = findKind(kindName);
  if (!kind) throw new TargetError(`no backend kind "${kindName}" (one of ${BACKEND_KINDS.map(({ name }) => name).join(', ')})`);
  if (speaks && !kind.keys.includes('speaks')) {
    const fixed = await kind.create(kind.name, kind.defaults);
    await fixed.close?.();
    throw new TargetError(`a ${kind.name} backend always speaks ${fixed.capabilities.speaks.join(' and ')}; --speaks does not apply`);
  }
  const settings = { ...kind.defaults, ...(speaks ? { speaks } : {}) };
  return { name: kind.name, settings, adapter: await kind.create(kind.name, settings) };
}

/** The dialect a body is in: the endpoint given, else the one its shape shows (dialectOfBody), else the text one. */
export function dialectFor(endpoint: CallerEndpoint | undefined, body: unknown): Dialect {
  if (endpoint === undefined) return dialectOfBody(body) ?? textDialect();
  const dialect = DIALECTS.find(({ shortName }) => shortName === endpoint);
  if (!dialect) throw new TypeError(`no caller endpoint "${endpoint}" (one of ${CALLER_ENDPOINTS.join(', ')})`);
  return dialect;
}

/** The caller's dialect a body looks like (`dialectFor` without an endpoint; completions when it shows none). */
export function detectEndpoint(body: unknown): CallerEndpoint {
  return dialectFor(undefined, body).shortName;
}

/** The caller endpoint a dialect serves (the inverse of `dialectFor`'s choice). */
export function endpointOfDialect(dialect: Dialect): CallerEndpoint {
  return dialect.shortName;
}

/** A body that shows no dialect is read as a completions prompt, the request with the fewest requirements. */
function textDialect(): Dialect {
  return DIALECTS.find(({ endpoint }) => endpoint === 'text') as Dialect;
}

/**
 * An endpoint as logs and users name it: a dialect's `shortName` (`chat`, `completions`, `responses`,
 * `messages`, `gemini`) or name, or a path or URL a dialect serves (`/v1/chat/completions`,
 * `https://api.openai.com/v1/responses`, `/v1/messages?beta=true`, `/v1/responses/compact`,
 * `/v1beta/models/gemini-2.5-pro:generateContent`). Undefined for anything else.
 */
export function endpointNamed(value: string): CallerEndpoint | undefined {
  const trimmed = value.trim();
  const name = trimmed.toLowerCase();
  const named = DIALECTS.find((dialect) => dialect.shortName === name || dialect.name === name);
  if (named) return named.shortName;
  const url = trimmed.replace(/^[a-z]+:\/\/[^/]+/i, '');
  const [path] = url.split('?', 1);
  const serves = (dialect: Dialect) =>
    dialect.route?.match(url) !== undefined || path === dialect.path || path.startsWith(`${dialect.path}/`) || path.endsWith(dialect.path);
  return DIALECTS.find(serves)?.shortName;
}

function readJson(text: string): unknown {
  if (text.trim() === '') throw invalidRequest(null, 'The request body is empty; a JSON object is required.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidRequest(null, `The request body is not valid JSON: ${(error as Error).message}`, 'invalid_json');
  }
}

export type TranslateOutcome =
  { ok: true; translation: TranslationReport } | { ok: false; status: number; error: Record<string, unknown>; report?: TranslationReport };

/**
 * What the configured route would send upstream for one request body, or the
 * error (in the caller's dialect) a caller would get; `translation.changes`
 * lists every change. Sends nothing, loads no model.
 * @example const outcome = await translate(loadConfig('proxy.yaml'), { model: 'gpt-4o', prompt: 'Hi' });
 */
export async function translate(config: ProxyConfig, body: Record<string, unknown>, endpoint?: CallerEndpoint): Promise<TranslateOutcome> {
  const translator = await createTranslator({ config });
  try {
    const result = await translator.translate(body, endpoint ? { endpoint } : {});
    if (result.verdict === 'invalid') return { ok: false, status: result.error.status, error: result.error.body };
    const { report } = result;
    if (report.error) return { ok: false, status: report.error.status, error: report.error.body, report };
    return { ok: true, translation: report };
  } finally {
    await translator.close();
  }
}
