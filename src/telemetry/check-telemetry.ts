/** The config's `telemetry` section, checked (src/runtime/configuration.ts calls it); no SDK is loaded here. */
import { allowKeys, ConfigError, objectAt, optionalBoolean, optionalString } from '../config/config-checks.js';
import type { TelemetrySettings } from '../config/settings.js';

export const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const KEYS = [
  'enabled',
  'endpoint',
  'protocol',
  'headers',
  'serviceName',
  'sampler',
  'samplerRatio',
  'honourCallerSampling',
  'captureContent',
];

export function checkTelemetry(raw: unknown): TelemetrySettings {
  const section = objectAt(raw, 'telemetry');
  allowKeys(section, 'telemetry', KEYS);
  const endpoint = optionalString(section.endpoint, 'telemetry.endpoint');
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint))
    throw new ConfigError('telemetry.endpoint', 'must be an http:// or https:// URL');
  const protocol = optionalString(section.protocol, 'telemetry.protocol');
  if (protocol !== undefined && !(PROTOCOLS as readonly string[]).includes(protocol))
    throw new ConfigError('telemetry.protocol', `must be one of ${PROTOCOLS.join(', ')} (gRPC is not shipped)`);
  const sampler = optionalString(section.sampler, 'telemetry.sampler');
  if (sampler !== undefined && !(SAMPLERS as readonly string[]).includes(sampler))
    throw new ConfigError('telemetry.sampler', `must be one of ${SAMPLERS.join(', ')}`);
  const ratio = section.samplerRatio;
  if (ratio !== undefined && (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)))
    throw new ConfigError('telemetry.samplerRatio', 'must be a number from 0 to 1');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(objectAt(section.headers ?? {}, 'telemetry.headers'))) {
    if (typeof value !== 'string') throw new ConfigError(`telemetry.headers.${name}`, 'must be a string');
    headers[name] = value;
  }
  const serviceName = optionalString(section.serviceName, 'telemetry.serviceName');
  const captureContent = optionalBoolean(section.captureContent, 'telemetry.captureContent');
  const honourCallerSampling = optionalBoolean(section.honourCallerSampling, 'telemetry.honourCallerSampling');
  return {
    enabled: optionalBoolean(section.enabled, 'telemetry.enabled') ?? true,
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(protocol !== undefined ? { protocol: protocol as TelemetrySettings['protocol'] & string } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(serviceName !== undefined ? { serviceName } : {}),
    ...(sampler !== undefined ? { sampler } : {}),
    ...(typeof ratio === 'number' ? { samplerRatio: ratio } : {}),
    ...(honourCallerSampling !== undefined ? { honourCallerSampling } : {}),
    ...(captureContent !== undefined ? { captureContent } : {}),
  };
}
