/** Routes a model name to a backend: the first route whose pattern matches wins; `*` is a wildcard. */
import type { Adapter } from '../backend/adapter.js';
import type { BackendCommon, RouteSettings } from '../config/settings.js';
import { modelNotFound } from '../errors/catalogue.js';

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
    for (const { pattern, route, backends: [backend, ...fallbacks] } of this.compiled) {
      if (!pattern.test(model)) continue;
      return { backend, ...(fallbacks.length > 0 ? { fallbacks } : {}), upstreamModel: route.upstreamModel ?? model, route };
    }
    throw modelNotFound(model);
  }

  /** Model names listed by `GET /v1/models`: the routes' literal names (patterns are not listable). */
  listedModels(): { id: string; backend: string }[] {
    return this.compiled.filter(({ route }) => !route.model.includes('*')).map(({ route, backends }) => ({ id: route.model, backend: backends[0].name }));
  }
}

/** A route's backends in the order they are tried. */
export function backendNames(route: Pick<RouteSettings, 'backend'>): string[] {
  return typeof route.backend === 'string' ? [route.backend] : [...route.backend];
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${escaped}$`);
}
