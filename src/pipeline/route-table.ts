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
  /** The model name to send upstream. */
  upstreamModel: string;
  /** The route that matched (absent for matches made outside a route table). */
  route?: RouteSettings;
}

export class RouteTable {
  private readonly compiled: { pattern: RegExp; route: RouteSettings }[];

  constructor(routes: readonly RouteSettings[], private readonly backends: ReadonlyMap<string, Backend>) {
    this.compiled = routes.map((route) => ({ pattern: globToRegExp(route.model), route }));
  }

  match(model: string): RouteMatch {
    for (const { pattern, route } of this.compiled) {
      if (!pattern.test(model)) continue;
      const backend = this.backends.get(route.backend) as Backend;
      return { backend, upstreamModel: route.upstreamModel ?? model, route };
    }
    throw modelNotFound(model);
  }

  /** Model names listed by `GET /v1/models`: the routes' literal names (patterns are not listable). */
  listedModels(): { id: string; backend: string }[] {
    return this.compiled.filter(({ route }) => !route.model.includes('*')).map(({ route }) => ({ id: route.model, backend: route.backend }));
  }
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${escaped}$`);
}
