/** Test helper: runs `run`, expects a 400 ProxyError, and returns its `param`. */
import { ProxyError } from '../../../../src/errors/proxy-error.js';

export function paramOf(run: () => unknown): string | null {
  try {
    run();
  } catch (error) {
    if (error instanceof ProxyError && error.status === 400) return error.param;
    throw error;
  }
  throw new Error('expected a 400');
}
