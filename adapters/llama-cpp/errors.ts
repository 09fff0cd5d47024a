/**
 * Errors of the llama.cpp engine in the worker: plain data, since they cross
 * postMessage (the host turns them into ProxyErrors).
 */
import { QueueFullError } from './scheduler.js';
import type { LlamaErrorData } from './types.js';

export class LlamaRequestError extends Error {
  constructor(readonly data: LlamaErrorData) {
    super(data.message);
    this.name = 'LlamaRequestError';
  }
}

export function invalidLlamaRequest(param: string, message: string, code = 'invalid_value'): LlamaRequestError {
  return new LlamaRequestError({ status: 400, code, param, message });
}

/** Any error in the worker -> data for the host: a full queue is a 429, anything unexpected a 500. */
export function toErrorData(error: unknown): LlamaErrorData {
  if (error instanceof LlamaRequestError) return error.data;
  if (error instanceof QueueFullError) {
    return { status: 429, code: 'queue_full', message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  }
  return { status: 500, code: 'llama_cpp_error', message: `The local model failed: ${(error as Error)?.message ?? String(error)}` };
}
