/** Routes a model name to a backend: the first route whose pattern matches wins; `*` is a wildcard. */
import type { Adapter } from '../../backend/adapter.js';
import type { BackendCommon, RouteSettings } from '../../config/settings.js';
import { modelNotFound } from '../../errors/catalogue.js';

export interface Backend {
  name: string;
  settings: BackendCommon;
  adapter: Adapter;
}

export interface RouteMatch {
  backend: Backend;
  /** The backends that take over, in order, when the one before fails before the first byte. */
  fallbacks?: readonly Backend[];
  /** The model name to send upstream. */
  upstreamModel: string;
  /** The route that matched (absent for matches made outside a route table). */
  route?: RouteSettings;
}

export class RouteTable {
  private readonly compiled: { pattern: RegExp; route: RouteSettings; backends: Backend[] }[];

  constructor(routes: readonly RouteSettings[], backends: ReadonlyMap<string, Backend>) {
    this.compiled = routes.map((route) => ({
      pattern: globToRegExp(route.model),
      route,
      backends: backendNames(route).map((name) => backends.get(name) as Backend),
    }));
  }

  match(model: string): RouteMatch {
    for (const {
      pattern,
      route,
      backends: [backend, ...fallbacks],
    } of this.compiled) {
      if (!pattern.test(model)) continue;
      return {
        backend,
        ...(fallbacks.length > 0 ? { fallbacks } : {}),
        upstreamModel: upstreamModelFor(route, backend.name, model),
        route,
      };
    }
    throw modelNotFound(model, this.patterns());
  }

  /** The route patterns in order, each once: what a caller may ask for (a literal route is a model name). */
  private patterns(): string[] {
    return [...new Set(this.compiled.map(({ route }) => route.model))];
  }

  /**
   * Model names listed by `GET /v1/models`, each once, with its route's first backend:
   * a literal route's name; for a wildcard route, the names its first backend serves
   * (`adapter.models`, known once started) that reach this route (not an earlier one).
   */
  listedModels(): { id: string; backend: string }[] {
    const listed = new Map<string, string>();
    this.compiled.forEach(({ route, backends: [first] }, index) => {
      const names = route.model.includes('*')
        ? (first.adapter.models ?? []).filter((name) => this.compiled.findIndex(({ pattern }) => pattern.test(name)) === index)
        : [route.model];
      for (const id of names) if (!listed.has(id)) listed.set(id, first.name);
    });
    return [...listed].map(([id, backend]) => ({ id, backend }));
  }
}

/** The model name a backend of the route is sent: its own rename, the route's, or the caller's. */
export function upstreamModelFor(
  route: Pick<RouteSettings, 'upstreamModel' | 'upstreamModels'> | undefined,
  backend: string,
  model: string,
): string {
  return route?.upstreamModels?.[backend] ?? route?.upstreamModel ?? model;
}

/** A route's backends in the order they are tried. */
export function backendNames(route: Pick<RouteSettings, 'backend'>): string[] {
  return typeof route.backend === 'string' ? [route.backend] : [...route.backend];
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${escaped}$`);
}
