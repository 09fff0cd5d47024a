/** Public API of dialect-proxy. */
export { createDialectProxy, type DialectProxy } from './http/middleware.js';
export { loadConfig, ConfigError } from './runtime/configuration.js';
export type {
  ProxyConfig,
  BackendSettings,
  BackendCommon,
  RemoteBackendSettings,
  LlamaServerSettings,
  LlamaCppSettings,
  AnthropicSettings,
  GeminiSettings,
  RouteSettings,
  ServerSettings,
} from './runtime/configuration.js';
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
