/** The migration aid as a function: what a route would send for one request body, without sending it. */
import type { ProxyConfig } from './configuration.js';
import type { Dialect } from './dialects/dialect.js';
import { fireworksCompletionsDialect } from './dialects/fireworks-completions/index.js';
import { openaiChatDialect } from './dialects/openai-chat/index.js';
import { toProxyError } from './errors/proxy-error.js';
import { describeDryRun } from './pipeline/dry-run.js';
import { parseCallerRequest } from './pipeline/parse-caller-request.js';
import { RouteTable } from './pipeline/route-table.js';
import { createBackends } from './create-runtime.js';
import { closeBackends } from './pipeline/runtime.js';
import { createRequestValidator } from './validation/create-validator.js';

export type TranslateOutcome =
  | { ok: true; translation: Record<string, unknown> }
  | { ok: false; status: number; error: Record<string, unknown> };

/**
 * What the configured route would send upstream for one request body, or the
 * error (in the caller's dialect) a caller would get. Sends nothing, loads no model.
 * @example const outcome = await translate(loadConfig('proxy.yaml'), { model: 'gpt-4o', prompt: 'Hi' });
 */
export async function translate(config: ProxyConfig, body: Record<string, unknown>, endpoint?: 'chat' | 'completions'): Promise<TranslateOutcome> {
  const dialect: Dialect = (endpoint ?? ('messages' in body ? 'chat' : 'completions')) === 'chat' ? openaiChatDialect : fireworksCompletionsDialect;
  const backends = await createBackends(config, { start: false });
  try {
    const request = parseCallerRequest(await createRequestValidator(), dialect, body);
    const match = new RouteTable(config.routes, backends).match(request.model);
    return { ok: true, translation: await describeDryRun(request, match) };
  } catch (error) {
    const failure = toProxyError(error);
    return { ok: false, status: failure.status, error: dialect.errorBody(failure) };
  } finally {
    await closeBackends(backends);
  }
}
