/** Reading one wire value of a known type, or a 400 naming where it is. */
import { invalidRequest } from '../errors/proxy-error.js';
import { isRecord } from '../model/is-record.js';

export function text(value: unknown, param: string): string {
  if (typeof value !== 'string') throw invalidRequest(param, `${param} must be a string.`);
  return value;
}

export function object(value: unknown, param: string): Record<string, unknown> {
  if (!isRecord(value)) throw invalidRequest(param, `${param} must be an object.`);
  return value;
}
