/**
 * A field table gives every wire request field exactly one fate in its dialect:
 *  - map:    copied or converted onto the neutral request;
 *  - reject: a 400 naming the field, with the reason.
 * Whether a mapped field then goes to the backend as is or is emulated by the
 * proxy depends on the backend: the plan decides, and `dialect-proxy fields`
 * shows it. The table type lists every wire field, so a field without a row
 * does not compile; `applyFieldTable` rejects any key the table does not know.
 */
import { invalidRequest } from '../errors/proxy-error.js';
import type { NeutralPath } from '../model/neutral-path.js';
import type { NeutralRequest } from '../model/request.js';
import type { DialectContext } from './dialect-context.js';

export type Fate = 'map' | 'reject';

export interface FieldContext {
  request: NeutralRequest;
  /** The wire field being applied, for `origins` and error `param`s. */
  field: string;
  body: Readonly<Record<string, unknown>>;
  /** What the proxy's config gives the dialect (its sealer); absent in the offline commands. */
  dialect?: DialectContext | undefined;
}

export interface FieldRule {
  fate: Fate;
  /** Where the value goes, how it is emulated, or why it is rejected (printed by `dialect-proxy fields`). */
  note: string;
  /** Writes the value onto the neutral request; throws a ProxyError for a value it cannot take. */
  apply?: (value: unknown, context: FieldContext) => void;
}

export type FieldTable<Field extends string> = Readonly<Record<Field, FieldRule>>;

/** Sets a dotted neutral path (`sampling.topK`) and records which wire field set it. */
export function setPath(request: NeutralRequest, path: NeutralPath, value: unknown, origin: string): void {
  const keys = path.split('.');
  let target = request as unknown as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    target[key] ??= {};
    target = target[key] as Record<string, unknown>;
  }
  target[keys[keys.length - 1]] = value;
  request.origins[path] = origin;
}

/** Copy the value unchanged to a neutral path. @example `temperature: copyTo('sampling.temperature')` */
export function copyTo(path: NeutralPath): FieldRule {
  return { fate: 'map', note: path, apply: (value, { request, field }) => setPath(request, path, value, field) };
}

/**
 * Copied like `copyTo`, but offered, not forced: a sampling hint the caller's dialect sends on every request
 * (Gemini's topK), which a backend without it goes without, in a warning.
 */
export function offerTo(path: NeutralPath): FieldRule {
  return {
    fate: 'map',
    note: `${path} (offered: a backend without it goes without, in a warning)`,
    apply: (value, { request, field }) => {
      setPath(request, path, value, field);
      (request.offeredPaths ??= []).push(path);
    },
  };
}

/** A mapping with its own conversion. */
export function mapWith(note: string, apply: NonNullable<FieldRule['apply']>): FieldRule {
  return { fate: 'map', note, apply };
}

/**
 * Kept verbatim for a backend that speaks this dialect natively; the plan rejects it for any other, unless
 * `offered`: an option the model may ignore (offered is not forced), which a backend without it goes without, in a warning.
 */
export function relay(note = 'relayed verbatim to backends that accept it', { offered = false } = {}): FieldRule {
  return {
    fate: 'map',
    note,
    apply: (value, { request, field }) => {
      request.passthrough[field] = value;
      if (offered) (request.offeredPassthrough ??= []).push(field);
    },
  };
}

/** Always a 400 naming the field. */
export function reject(why: string): FieldRule {
  return { fate: 'reject', note: why };
}

/**
 * Applies a table to a validated wire body. `null` means "not set" (the
 * optional fields of both specs are nullable), so it is skipped.
 */
export function applyFieldTable<Field extends string>(
  table: FieldTable<Field>,
  body: Readonly<Record<string, unknown>>,
  request: NeutralRequest,
  dialect?: DialectContext,
): void {
  for (const field of Object.keys(body)) {
    const value = body[field];
    if (value === null || value === undefined) continue;
    const rule: FieldRule | undefined = (table as Record<string, FieldRule>)[field];
    if (!rule) throw invalidRequest(field, `Unrecognized request argument supplied: ${field}`);
    if (rule.fate === 'reject') throw invalidRequest(field, `${field} is not supported: ${rule.note}`, 'unsupported_parameter');
    rule.apply?.(value, { request, field, body, dialect });
  }
}
