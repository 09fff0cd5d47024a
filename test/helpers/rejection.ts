/** Test helper: the ProxyError that `run` throws (any other outcome fails the test). */
import { ProxyError } from '../../src/errors/proxy-error.js';

export function rejection(run: () => unknown): ProxyError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProxyError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}
