/** What the proxy's config gives the dialects, beside each request. */
import type { ProxyLimits } from '../config/settings.js';
import type { Sealer } from './sealer.js';

/** The offline commands give none: the defaults. */
export interface DialectContext {
  /** The Responses API's closing events repeat at most `repeatedOutputBytes` of an item. */
  limits?: Pick<ProxyLimits, 'repeatedOutputBytes'>;
  /** Seals what a caller is to hand back unread (a Responses reasoning item's `encrypted_content`); without it nothing is sealed. */
  sealer?: Sealer;
}
