/**
 * The dialects whose URLs carry part of the request (Gemini's `/v1beta/models/{model}:generateContent`):
 * a `POST` under their prefixes is bound to the dialect of that URL (`Dialect.route`) and served like any
 * translated request (or counted, `:countTokens`); a `GET` of the prefix lists the models in the
 * dialect's shape, of `<prefix><model>` describes one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dialect, RoutedDialect } from '../dialects/dialect.js';
import { DIALECTS } from '../dialects/registry.js';
import type { ProxyError } from '../errors/proxy-error.js';
import { backendUnavailable } from '../errors/catalogue.js';
import { checkApiKey } from '../pipeline/request/check-api-key.js';
import { sendError, sendJson } from '../pipeline/answer/send-json.js';
import type { ProxyRuntime } from '../pipeline/runtime.js';

const ROUTED = DIALECTS.filter((dialect) => dialect.route);

/** The routed call a URL makes, if any dialect's route takes it. */
export function routedCall(url: string): RoutedDialect | undefined {
  for (const dialect of ROUTED) {
    const route = dialect.route;
    if (!route?.prefixes.some((prefix) => url.startsWith(prefix))) continue;
    const call = route.match(url);
    if (call) return call;
  }
  return undefined;
}

export interface RoutedModels {
  runtime: () => Promise<ProxyRuntime>;
  apiKeys: readonly string[];
}

/**
 * `GET <prefix>` (the list) and `GET <prefix><model>` in the routed dialect's shape; false when the
 * path is none of theirs. Under `/v1/` (shared with OpenAI's list and the pass-through) only a caller
 * that sends the dialect's own key header is answered here.
 */
export function serveRoutedModels(req: IncomingMessage, res: ServerResponse, models: RoutedModels): boolean {
  const path = (req.url ?? '').split('?', 1)[0];
  for (const dialect of ROUTED) {
    const { route, modelList, apiKeyFrom } = dialect;
    const prefix = route?.prefixes.find((known) => path === known.replace(/\/$/, '') || path.startsWith(known));
    if (!prefix || !modelList) continue;
    if (prefix.startsWith('/v1/') && !ownKeyIn(req, dialect)) continue;
    const model = path.length > prefix.length ? modelOf(path.slice(prefix.length)) : undefined;
    if (path.length > prefix.length && (model === undefined || !modelList.model)) continue;
    try {
      checkApiKey(req, models.apiKeys, apiKeyFrom);
    } catch (error) {
      sendError(res, dialect, error as ProxyError);
      return true;
    }
    models.runtime().then(
      (runtime) => {
        if (model === undefined) {
          sendJson(res, 200, modelList.body(runtime.routes.listedModels()));
          return;
        }
        try {
          runtime.routes.match(model); // a 404 in the dialect's shape for a model no route serves
          sendJson(res, 200, modelList.model?.(model));
        } catch (error) {
          sendError(res, dialect, error as ProxyError);
        }
      },
      (error: unknown) => sendError(res, dialect, backendUnavailable(error)),
    );
    return true;
  }
  return false;
}

/** The model a path names (`gemini-2.5-pro`, percent-decoded), or undefined for a method's path (`x:generateContent`). */
function modelOf(rest: string): string | undefined {
  if (rest.includes(':')) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

/**
 * The routed dialect whose callers a URL under its prefixes comes from, for an answer in its shape (a 404):
 * under `/v1/`, shared with OpenAI's paths, only a caller that sends the dialect's own key.
 */
export function routedDialectOf(req: IncomingMessage): Dialect | undefined {
  const path = (req.url ?? '').split('?', 1)[0];
  return ROUTED.find(
    (dialect) => dialect.route?.prefixes.some((prefix) => path.startsWith(prefix)) && (!path.startsWith('/v1/') || ownKeyIn(req, dialect)),
  );
}

function ownKeyIn(req: IncomingMessage, dialect: Dialect): boolean {
  const { header, query } = dialect.apiKeyFrom ?? {};
  if (header !== undefined && req.headers[header] !== undefined) return true;
  const url = req.url ?? '';
  return query !== undefined && url.includes('?') && new URLSearchParams(url.slice(url.indexOf('?') + 1)).has(query);
}
