/**
 * The caller's `anthropic-beta` header (a comma-separated list of beta names):
 * kept as `vendor.anthropic.betas` for an anthropic backend, which sends them with its
 * own. The fields a beta enables are fields of their own (`context_management`):
 * a backend that lacks one goes without it, named in a warning.
 */
import { invalidRequest } from '../../errors/proxy-error.js';
import { headerValue, type CrossFieldRule } from '../cross-field-rules.js';

/** A beta's name as Anthropic writes them (`context-management-2025-06-27`). */
const BETA = /^[\w.-]+$/;

export const betaHeader: CrossFieldRule = {
  fields: ['anthropic-beta'],
  note: 'anthropic-beta (a header) -> vendor.anthropic.betas, sent to an anthropic backend with its own betas',
  apply: ({ headers, request }) => {
    const value = headerValue(headers, 'anthropic-beta');
    if (value === undefined) return;
    const betas = value
      .split(',')
      .map((beta) => beta.trim())
      .filter((beta) => beta !== '');
    const bad = betas.find((beta) => !BETA.test(beta));
    if (bad !== undefined)
      throw invalidRequest('anthropic-beta', `anthropic-beta: '${bad}' is not a beta name (letters, digits, '.', '_' and '-').`);
    if (betas.length > 0) request.vendor = { ...request.vendor, anthropic: { ...request.vendor?.anthropic, betas: [...new Set(betas)] } };
  },
};
