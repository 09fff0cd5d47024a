/**
 * `POST /v1/messages/count_tokens` (a dialect's `countTokensPath`): the
 * request as it would be sent, counted without generating. Where the routed
 * backend has a tokenizer the proxy can ask (llama.cpp's server, vLLM, the
 * bundled worker: `Adapter.countTokens`), the request is planned as a real one
 * (the chat template applied where the backend takes a prompt) and the backend
 * counts it: `x-dialect-token-count: backend`. Elsewhere, or when that fails,
 * an estimate (about four characters a token, images at a flat rate), said to
 * be one: `x-dialect-token-count: estimate`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dialect } from '../dialects/dialect.js';
import { invalidRequest, toProxyError } from '../errors/proxy-error.js';
import { isRecord } from '../model/is-record.js';
import type { NeutralRequest } from '../model/request.js';
import { sendError, sendJson } from './answer/send-json.js';
import { checkApiKey } from './request/check-api-key.js';
import { parseCallerRequest } from './request/parse-caller-request.js';
import { readCallerBody } from './request/read-json-body.js';
import { requestIdOf } from './request/request-id.js';
import type { ProxyRuntime } from './runtime.js';
import type { RouteMatch } from './plan/route-table.js';
import { dryRun } from './report/dry-run.js';

const CHARS_PER_TOKEN = 4;
/** What an image costs at about a megapixel, where its size is not known. */
const TOKENS_PER_IMAGE = 1600;

export async function countTokens(runtime: ProxyRuntime, dialect: Dialect, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = requestIdOf(req);
  res.setHeader('x-request-id', requestId);
  if (dialect.requestIdHeader) res.setHeader(dialect.requestIdHeader, requestId);
  try {
    checkApiKey(req, runtime.config.server.apiKeys, dialect.apiKeyFrom);
    const body = await readCallerBody(req, runtime.config);
    // The create request without the fields that shape only the answer, which are refused as Anthropic does;
    // max_tokens stands in for the create request's validator.
    const counted = isRecord(body) ? (dialect.countTokens?.createBody ?? messagesCountBody)(body) : body;
    const loading = runtime.validator.prepare(dialect.document);
    if (loading) await loading;
    const request = parseCallerRequest(runtime.validator, dialect, counted, req.headers, runtime.dialectContext);
    // A model no route serves is a 404 here too, as on /v1/messages.
    const match = runtime.routes.match(request.model);
    const byBackend = await countByBackend(runtime, request, match, res, requestId);
    res.setHeader('x-dialect-token-count', byBackend === undefined ? 'estimate' : 'backend');
    const tokens = byBackend ?? estimateTokens(request);
    sendJson(res, 200, dialect.countTokens?.answer(tokens) ?? { input_tokens: tokens });
  } catch (error) {
    sendError(res, dialect, toProxyError(error));
  }
}

/**
 * The backend's own count of the request as the plan would send it; undefined where it has no
 * tokenizer to ask, or the plan or the count fails (a count is advice: the estimate stands in),
 * but for a 429, which the caller gets.
 */
async function countByBackend(
  runtime: ProxyRuntime,
  request: NeutralRequest,
  match: RouteMatch,
  res: ServerResponse,
  requestId: string,
): Promise<number | undefined> {
  const adapter = match.backend.adapter;
  if (!adapter.countTokens) return undefined;
  // A caller that leaves (the response closes before it is written) cancels the backend's count.
  const closed = new AbortController();
  const onClose = () => closed.abort();
  res.once('close', onClose);
  try {
    // Without the max_tokens that stood in for the validator: a count has none.
    const { maxTokens: _standIn, ...limits } = request.limits;
    const { received } = await dryRun({ ...request, limits }, match, { limits: runtime.config.limits });
    return await adapter.countTokens(received[0], { signal: closed.signal, requestId });
  } catch (error) {
    // A busy backend (its queue full) is a 429 with its Retry-After: the caller retries for the exact count.
    if (toProxyError(error).status === 429) throw error;
    runtime.logger.info('token count by the backend failed; answering with an estimate', {
      requestId,
      backend: match.backend.name,
      reason: toProxyError(error).message,
    });
    return undefined;
  } finally {
    res.off('close', onClose);
  }
}

/** What a create request has and a count does not (Anthropic's MessageCountTokensParams). */
const ANSWER_FIELDS = [
  'max_tokens',
  'stream',
  'stop_sequences',
  'temperature',
  'top_p',
  'top_k',
  'metadata',
  'service_tier',
  'container',
  'diagnostics',
  'inference_geo',
];

/** Anthropic's count body: the create body without max_tokens, which stands in for the create request's validator. */
function messagesCountBody(body: Record<string, unknown>): Record<string, unknown> {
  return { ...refuseAnswerFields(body), max_tokens: 1 };
}

function refuseAnswerFields(body: Record<string, unknown>): Record<string, unknown> {
  const field = ANSWER_FIELDS.find((name) => name in body);
  if (field !== undefined)
    throw invalidRequest(field, `Unrecognized request argument supplied: ${field} (a token count takes no ${field}).`);
  return body;
}

/** The prompt's characters (text, tool calls, tool definitions) over four, and a flat rate per image. */
export function estimateTokens(request: NeutralRequest): number {
  let chars = 0;
  let images = 0;
  for (const message of request.messages ?? []) {
    if (typeof message.content === 'string') chars += message.content.length;
    else
      for (const part of message.content ?? []) {
        if (part.type === 'text') chars += part.text.length;
        else if (part.type === 'image') images++;
        else chars += JSON.stringify(part).length;
      }
    chars +=
      (message.reasoning?.length ?? 0) + (message.toolCalls ?? []).reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  }
  for (const tool of request.tools ?? []) chars += JSON.stringify(tool).length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + images * TOKENS_PER_IMAGE;
}
