/** Public API of dialect-proxy. */
import type { BackendSettingsByKind } from './runtime/configuration.js';

export { createDialectProxy, type DialectProxy } from './http/middleware.js';
export { loadConfig, ConfigError } from './runtime/configuration.js';
export type {
  ProxyConfig,
  BackendSettings,
  BackendSettingsByKind,
  BackendCommon,
  RemoteBackendSettings,
  RouteSettings,
  ServerSettings,
} from './runtime/configuration.js';
/**
 * The settings of four kinds under the names they were first published with (a kind added since has only
 * `BackendSettingsByKind['<kind>']`, which every kind has: these names are kept, not extended).
 */
export type LlamaCppSettings = BackendSettingsByKind['llama-cpp'];
export type LlamaServerSettings = BackendSettingsByKind['llama-server'];
export type AnthropicSettings = BackendSettingsByKind['anthropic'];
export type GeminiSettings = BackendSettingsByKind['gemini'];
export type { TelemetrySettings } from './config/settings.js';
export { startServer, type RunningServer } from './http/server.js';
export { translate, type TranslateOutcome } from './commands/translate.js';
export { ProxyError } from './errors/proxy-error.js';
export type { NeutralRequest, Message } from './model/request.js';
export type { NeutralResult, Usage, FinishReason } from './model/result.js';
export type { StreamEvent, NeutralStreamEvent } from './model/stream-event.js';
export type { Vendors, VendorName, VendorData, VendorEvent } from './model/vendor-data.js';
export type { Adapter, AdapterContext, BackendCapabilities } from './backend/adapter.js';
export type { BackendKind } from './backend/backend-kind.js';
export type { BackendTable, FieldHandling, FieldSupport } from './backend/field-support.js';
export type { NeutralField } from './model/neutral-fields.js';
