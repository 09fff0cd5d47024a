/** No open relay by accident: a proxy without keys serves only this machine unless the config says otherwise. */
import { BlockList, isIP } from 'node:net';
import { ConfigError } from '../config/config-checks.js';
import type { ServerSettings } from '../config/settings.js';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1 (also written out or IPv4-mapped) and localhost: only this machine can connect. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && loopback.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * An open relay must be asked for: on an address other machines reach, a proxy without `apiKeys`
 * lets anyone spend the backends' keys, the pass-through included.
 */
export function checkOpenRelay(host: string, server: Pick<ServerSettings, 'apiKeys' | 'allowUnauthenticated'>): void {
  if (isLoopbackHost(host) || server.apiKeys.length > 0 || server.allowUnauthenticated) return;
  throw new ConfigError(
    'server.apiKeys',
    `none set, and ${host || '(all addresses)'} is not a loopback address: anyone who can reach the port could use the backends ` +
      'and their API keys (every /v1 path of the pass-through included). Set server.apiKeys (callers then send "Authorization: Bearer <key>"), ' +
      'listen on 127.0.0.1 (server.host or --host), or set server.allowUnauthenticated: true to serve without keys on purpose.',
  );
}
