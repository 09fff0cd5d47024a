/** Everything built once at start-up and shared by every request. */
import { createAdapter } from '../../adapters/create-adapter.js';
import type { ProxyConfig } from '../configuration.js';
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
}

export async function createRuntime(config: ProxyConfig, options: RuntimeOptions = {}): Promise<ProxyRuntime> {
  const logger = options.logger ?? createLogger({ level: config.server.logLevel });
  const validator = await createRequestValidator();
  const backends = await createBackends(config, { start: true });
  return {
    config,
    routes: new RouteTable(config.routes, backends),
    backends,
    validator,
    logger,
    close: () => closeBackends(backends),
  };
}

/** One adapter per configured backend; `start` loads models and learns their templates (a dry run needs neither). */
export async function createBackends(config: ProxyConfig, options: { start: boolean }): Promise<Map<string, Backend>> {
  const built = await Promise.all(Object.entries(config.backends).map(async ([name, settings]) => {
    const adapter = await createAdapter(name, settings);
    if (options.start) await adapter.start?.();
    return { name, settings, adapter };
  }));
  return new Map(built.map((backend) => [backend.name, backend]));
}

export async function closeBackends(backends: ReadonlyMap<string, Backend>): Promise<void> {
  await Promise.allSettled([...backends.values()].map((backend) => backend.adapter.close?.()));
}
