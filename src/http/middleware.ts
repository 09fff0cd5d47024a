/**
 * The drop-in: an Express router that serves the translated endpoints and
 * leaves every other route of the host app alone.
 */
import express, { type Router } from 'express';
import type { Registry } from 'prom-client';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadConfig, type ProxyConfig } from '../runtime/configuration.js';
import type { Dialect, ListedModel } from '../dialects/dialect.js';
import { DIALECTS } from '../dialects/registry.js';
import { backendUnavailable, methodNotAllowed, proxyShuttingDown, upgradeRequired } from '../errors/catalogue.js';
import { internalError, type ProxyError } from '../errors/proxy-error.js';
import { checkApiKey } from '../pipeline/request/check-api-key.js';
import { answerStateRoute, handleRequest } from '../pipeline/handle-request.js';
import { countTokens } from '../pipeline/count-tokens.js';
import { sendError, sendJson } from '../pipeline/answer/send-json.js';
import { createRuntime, type RuntimeOptions } from '../runtime/create-runtime.js';
import { warmUp } from '../runtime/warm-up.js';
import { ProxyMetrics } from '../metrics/proxy-metrics.js';
import type { ProxyRuntime } from '../pipeline/runtime.js';
import { drainRequests, type DrainOutcome } from '../pipeline/drain-requests.js';
import { backendHealth } from '../pipeline/backend-health.js';
import { serveInspector } from './inspector.js';
import { sharedFor } from './shared-for.js';
import { unknownUrlHandler } from './unknown-url.js';
import { routedCall, serveRoutedModels } from './routed-dialects.js';
import { INSPECTOR_KINDS_PATH, INSPECTOR_TRANSLATE_PATH, inspectorApi } from './inspector-api.js';

export interface DialectProxy extends Router {
  /** Resolves once backends and validators are ready (models loaded). */
  ready: Promise<void>;
  /** Stops workers and closes upstream connections. */
  close(): Promise<void>;
  /**
   * The first step of a graceful shutdown (then `close()`): `/healthz` answers 503 `draining`, new
   * translated requests a 503 `shutting_down`; those in flight get `graceMs` to finish, then are
   * ended the same way (an error frame in a stream). Calling it again returns the same drain.
   */
  drain(graceMs: number): Promise<DrainOutcome>;
  /**
   * Serves a translated request (`POST` to a dialect's path) straight from Node's request and
   * response, without the router: the standalone server's fast path. False for any other request,
   * which is left untouched for the router.
   */
  serveTranslated(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * The proxy's Prometheus registry, served at `GET /metrics`; a host app may mount it its own way.
   * @example app.get('/internal/metrics', async (_req, res) => res.type(proxy.metrics.contentType).send(await proxy.metrics.metrics()));
   */
  metrics: Registry;
  /** The standalone server's last handler: a 404 naming the URL meant where it can tell, logged (unknown-url.ts). */
  notFound: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface DialectProxyOptions extends RuntimeOptions {
  /**
   * Serve the inspector page (src/http/inspector.ts) at this path of the router (`true`: `/`), unless
   * the config says `server.inspector: false`. The standalone server serves it at `/`.
   */
  inspector?: boolean | string;
  /**
   * Warm up before `ready` for `server.warmUpMs` (src/runtime/warm-up.ts): synthetic requests to a loopback
   * server of canned answers, never to a backend. The standalone server does; off by default in a host app.
   */
  warmUp?: boolean;
}

/**
 * Creates the proxy as an Express router.
 * @example
 * const app = express();
 * app.use(createDialectProxy(loadConfig('config/default.yaml')));
 * app.listen(8080);
 */
export function createDialectProxy(
  config: ProxyConfig | string | Record<string, unknown>,
  options: DialectProxyOptions = {},
): DialectProxy {
  const checked =
    typeof config === 'string' || !Object.isFrozen(config)
      ? loadConfig(config as string | Record<string, unknown>)
      : (config as ProxyConfig);
  const metrics = options.metrics ?? new ProxyMetrics();
  // Closed before it was ready (the port was taken): the warm-up stops after its current round.
  const closing = new AbortController();
  const starting = Promise.all([
    createRuntime(checked, { ...options, metrics }),
    options.warmUp ? warmUp(checked, checked.server.warmUpMs, closing.signal) : undefined,
  ]).then(([built, warmed]) => {
    if (closing.signal.aborted) return built;
    if (warmed?.failure) built.logger.warn('warm-up failed; the first requests meet cold code', { error: warmed.failure });
    else if (warmed?.requests)
      built.logger.info('warmed up', {
        requests: warmed.requests,
        ms: Math.round(warmed.ms),
        ...(Object.keys(warmed.refused).length ? { refused: warmed.refused } : {}),
      });
    return built;
  });
  let runtime: ProxyRuntime | undefined;
  let failure: Error | undefined;
  let draining: Promise<DrainOutcome> | undefined;
  const ready = starting.then(
    (built) => {
      runtime = built;
    },
    (error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      throw failure;
    },
  );
  ready.catch(() => undefined); // surfaced by requests and by `ready` itself

  const router = express.Router() as DialectProxy;
  const translated = (dialect: Dialect) => (req: IncomingMessage, res: ServerResponse) => {
    starting.then(
      // Checked once started: a request that waited for the models must not slip in behind a drain.
      (built) => (draining ? sendError(res, dialect, proxyShuttingDown()) : handleRequest(built, dialect, req, res)),
      (error: unknown) => sendError(res, dialect, backendUnavailable(error)),
    );
  };
  const counted = (dialect: Dialect) => (req: IncomingMessage, res: ServerResponse) => {
    starting.then(
      (built) => countTokens(built, dialect, req, res),
      (error: unknown) => sendError(res, dialect, backendUnavailable(error)),
    );
  };
  // Dialects on a fixed path; those whose URL carries the model (Gemini's) are bound per URL (routed-dialects.ts).
  const fixed = DIALECTS.filter((dialect) => !dialect.route);
  const served = fixed.flatMap((dialect) => [dialect, ...(dialect.variants ?? [])]);
  const byPath = new Map(served.map((dialect) => [dialect.path, translated(dialect)]));
  const byDialectPath = new Map(fixed.map((dialect) => [dialect.path, dialect]));
  for (const [path, handler] of byPath) router.post(path, handler);
  /** A routed dialect's call: generated or counted. */
  const serveRouted = (req: IncomingMessage, res: ServerResponse): boolean => {
    const call = req.method === 'POST' ? routedCall(req.url ?? '') : undefined;
    if (!call) return false;
    (call.countTokens ? counted : translated)(call.dialect)(req, res);
    return true;
  };
  const runtimeWhenStarted = () => starting;
  router.use((req, res, next) => {
    if (serveRouted(req, res)) return;
    if (req.method === 'GET' && serveRoutedModels(req, res, { runtime: runtimeWhenStarted, apiKeys: checked.server.apiKeys })) return;
    next();
  });
  // A WebSocket upgrade (Codex CLI's Responses transport where a provider offers one): a 426, and it falls back to
  // HTTP. Node hands an upgrade with no 'upgrade' listener to the request handler, so the standalone
  // server's requests reach this route too. Keyed like the endpoint itself.
  router.get(
    fixed.map(({ path }) => path),
    (req, res, next) => {
      if (!isWebSocketUpgrade(req)) {
        next();
        return;
      }
      const dialect = byDialectPath.get(req.path);
      try {
        checkApiKey(req, checked.server.apiKeys);
      } catch (error) {
        sendError(res, dialect, error as ProxyError);
        return;
      }
      sendError(res, dialect, upgradeRequired(req.path));
    },
  );
  router.all(
    fixed.map(({ path }) => path),
    (_req, res) => {
      sendError(res, undefined, methodNotAllowed());
    },
  );
  for (const dialect of DIALECTS) if (dialect.countTokensPath) router.post(dialect.countTokensPath, counted(dialect));
  // A stateful dialect's own routes (the Responses API's GET, DELETE and cancel), keyed like the rest.
  for (const route of DIALECTS.flatMap((dialect) => dialect.state?.routes ?? [])) {
    router[route.method](route.path, (req, res) => {
      starting.then(
        (built) => answerStateRoute(built, route, String(req.params.id), req, res),
        (error: unknown) => sendError(res, undefined, backendUnavailable(error)),
      );
    });
  }
  router.get('/v1/models', (req, res) => {
    // A dialect's own clients (Anthropic's send `anthropic-version`) read its list shape and its errors.
    const own = DIALECTS.find(({ modelList }) => modelList && typeof req.headers[modelList.header] === 'string');
    // Keyed like the other /v1 routes (OpenAI's own is), before anything about the backends shows.
    try {
      checkApiKey(req, checked.server.apiKeys, own?.apiKeyFrom);
    } catch (error) {
      sendError(res, own, error as ProxyError);
      return;
    }
    starting.then(
      (built) => sendJson(res, 200, (own?.modelList?.body ?? openaiModelList)(built.routes.listedModels())),
      (error: unknown) => sendError(res, own, backendUnavailable(error)),
    );
  });
  // Open like /healthz: scrapers carry no API key, and the values hold no secret; so rendered at most once a
  // second, and shared, or a caller with no key could keep the process busy rendering.
  const metricsText = sharedFor(1_000, options.metricsText ?? (() => metrics.registry.metrics()));
  router.get('/metrics', (_req, res) => {
    metricsText().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType });
        res.end(text);
      },
      (error: unknown) => sendError(res, undefined, internalError('The metrics could not be collected.', error)),
    );
  });
  router.get('/healthz', (_req, res) => {
    if (draining) sendJson(res, 503, { status: 'draining' });
    // Degraded (a pool with no replica in service) is still a 200: backend-health.ts says why.
    else if (runtime) {
      // So is a response store that is down: requests that need no store are served; those that do get a 503 store_unavailable.
      const store = runtime.responseStore?.health?.();
      const health = backendHealth(runtime.backends);
      sendJson(res, 200, store ? { ...health, ...(store === 'degraded' ? { status: 'degraded' } : {}), store } : health);
    } else if (failure) sendJson(res, 503, { status: 'failed', error: failure.message });
    else sendJson(res, 503, { status: 'starting' });
  });
  const inspectorPath = options.inspector === true ? '/' : typeof options.inspector === 'string' ? options.inspector : undefined;
  // The page, and what it asks beside the translated endpoints (the kinds, a translation for a default backend of one).
  const inspector = inspectorPath !== undefined && checked.server.inspector ? inspectorApi(checked) : undefined;
  if (inspector) {
    router.get(inspectorPath as string, serveInspector);
    router.get(INSPECTOR_KINDS_PATH, inspector.kinds);
    router.post(INSPECTOR_TRANSLATE_PATH, inspector.translate);
  }
  // Other /v1 paths: to the pass-through backend when there is one, else on to the host app (the standalone server ends with a 404).
  const { passthrough } = checked;
  const relay =
    passthrough === undefined ? undefined : import('./passthrough.js').then((module) => module.passthrough({ ...checked, passthrough }));
  router.use('/v1', (req, res, next) => {
    if (!relay) next();
    else relay.then((handle) => handle(req, res, next), next);
  });

  router.serveTranslated = (req, res) => {
    if (req.method !== 'POST') return false;
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const handler = byPath.get(query < 0 ? url : url.slice(0, query));
    if (!handler) return serveRouted(req, res);
    handler(req, res);
    return true;
  };
  router.notFound = unknownUrlHandler(() => runtime?.logger);
  router.ready = ready;
  router.metrics = metrics.registry;
  router.close = async () => {
    closing.abort();
    await inspector?.close();
    await (await starting.catch(() => undefined))?.close();
  };
  // Before the runtime is up nothing is in flight (requests waiting for it get the 503 above).
  router.drain = (graceMs) => (draining ??= runtime ? drainRequests(runtime, graceMs) : Promise.resolve({ ended: 0 }));
  return router;
}

/** `Connection: Upgrade` with `Upgrade: websocket` (RFC 6455's opening handshake). */
function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return listsToken(req.headers.upgrade, 'websocket') && listsToken(req.headers.connection, 'upgrade');
}

/** Whether a comma-separated header lists a token (case-insensitive). */
function listsToken(header: string | undefined, token: string): boolean {
  return header !== undefined && header.split(',').some((item) => item.trim().toLowerCase() === token);
}

function openaiModelList(models: readonly ListedModel[]): Record<string, unknown> {
  return { object: 'list', data: models.map(({ id, backend }) => ({ id, object: 'model', created: 0, owned_by: backend })) };
}
