/**
 * Typed dotted paths into the neutral request (`sampling.topK`, `limits.stop`),
 * so that `setPath`, `origins` and the backend tables reject a typo at compile
 * time. Arrays and open records (`metadata`, `logitBias`) are leaves.
 */
import type { NeutralRequest } from './request.js';

type Bookkeeping = 'origins' | 'warnings' | 'passthrough';

type IsOpenRecord<T> = string extends keyof T ? true : false;

type PathsOf<T, Depth extends unknown[] = []> = {
  [K in keyof T & string]: NonNullable<T[K]> extends readonly unknown[] | string | number | boolean
    ? K
    : NonNullable<T[K]> extends object
      ? IsOpenRecord<NonNullable<T[K]>> extends true
        ? K
        : Depth['length'] extends 2 ? K : K | `${K}.${PathsOf<NonNullable<T[K]>, [...Depth, unknown]>}`
      : K;
}[keyof T & string];

/** Every neutral request path the dialects set and the backends read. */
export type NeutralPath = PathsOf<Omit<NeutralRequest, Bookkeeping>>;
