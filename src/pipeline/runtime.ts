/** Everything built once at start-up and shared by every request. */
import type { Adapter } from '../../adapters/adapter.js';
import { createAdapter } from '../../adapters/create-adapter.js';
import type { BackendSettings, ProxyConfig } from '../configuration.js';
import { createLogger, type Logger } from '../logger.js';
import { createRequestValidator, type RequestValidator } from '../validation/create-validator.js';
import { RouteTable, type Backend } from './route-table.js';

export interface ProxyRuntime {
  config: ProxyConfig;
  routes: RouteTable;
  backends: ReadonlyMap<string, Backend>;
  validator: RequestValidator;
  logger: Logger;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  logger?: Logger;
  /** Builds an adapter for a backend; tests inject fakes here. */
  createAdapter?: (name: string, settings: BackendSettings, logger: Logger) => Promise<Adapter>;
}

export async function createRuntime(config: ProxyConfig, options: RuntimeOptions = {}): Promise<ProxyRuntime> {
  const logger = options.logger ?? createLogger({ level: config.server.logLevel });
  const build = options.createAdapter ?? createAdapter;
  const validator = await createRequestValidator();
  const backends = new Map<string, Backend>();
  const built = await Promise.all(Object.entries(config.backends).map(async ([name, settings]) => {
    const adapter = await build(name, settings, logger);
    await adapter.start?.();
    return { name, settings, adapter };
  }));
  for (const backend of built) backends.set(backend.name, backend);
  return {
    config,
    routes: new RouteTable(config.routes, backends),
    backends,
    validator,
    logger,
    async close() {
      await Promise.allSettled([...backends.values()].map((backend) => backend.adapter.close?.()));
    },
  };
}
