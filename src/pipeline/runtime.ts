/** Everything built once at start-up and shared by every request (built by src/create-runtime.ts). */
import type { ProxyConfig } from '../config/settings.js';
import type { Logger } from '../logger.js';
import type { RequestValidator } from '../validation/create-validator.js';
import type { Backend, RouteTable } from './route-table.js';

export interface ProxyRuntime {
  config: ProxyConfig;
  routes: RouteTable;
  backends: ReadonlyMap<string, Backend>;
  validator: RequestValidator;
  logger: Logger;
  close(): Promise<void>;
}

export async function closeBackends(backends: ReadonlyMap<string, Backend>): Promise<void> {
  await Promise.allSettled([...backends.values()].map((backend) => backend.adapter.close?.()));
}
