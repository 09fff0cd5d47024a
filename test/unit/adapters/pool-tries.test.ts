/** A pool's tries (adapters/pool-tries.ts): the error that names every replica tried, and what it leaves alone. */
import { PoolTries } from '../../../adapters/pool-tries.js';
import { ReplicaPool } from '../../../adapters/replica-pool.js';
import { upstreamError, upstreamUnreachable } from '../../../src/errors/catalogue.js';
import { clientClosedRequest, invalidRequest } from '../../../src/errors/proxy-error.js';

const URLS = ['http://gpu-1:8000/v1', 'http://gpu-2:8000/v1', 'http://gpu-3:8000/v1'];

function tries(setUp: (pool: ReplicaPool) => void = () => undefined): { pool: ReplicaPool; tries: PoolTries } {
  const pool = new ReplicaPool(URLS, { now: () => 1_000 });
  setUp(pool);
  return { pool, tries: new PoolTries(pool, pool.plan('session-1'), (base) => `${base}/chat/completions`) };
}

describe('PoolTries', () => {
  test("every replica tried is named with what it met; the untried with their state; status and code stay the last try's", () => {
    const { tries: run } = tries((pool) => pool.probeFailed(pool.replicas[1]));
    const first = run.pick();
    const refused = upstreamUnreachable('Could not reach the upstream backend gpu-x:8000: connection refused.', undefined);
    run.onTry(first, { error: refused });
    const second = run.pick();
    const busy = upstreamError(503, 'overloaded', 2);
    run.onTry(second, { status: 503, error: busy });
    const error = run.failure(busy, 'gpu') as ReturnType<typeof upstreamError>;
    expect(error).toMatchObject({ status: 502, type: 'upstream_error', code: 'upstream_overloaded', retryAfterSeconds: 2 });
    const [a, b] = [first, second].map((url) => url.replace(/\/chat\/completions$/, ''));
    // The replicas in service go first: the one down is left for a third try, which the retries did not reach.
    expect([a, b].sort()).toEqual([URLS[0], URLS[2]]);
    expect(error.message).toBe(
      `Backend "gpu": no replica could take the request. Tried ${a} (connection refused), ${b} (HTTP 503); not tried (the retries were spent): ${URLS[1]} (out of service: its health probe fails).`,
    );
  });

  test('a replica out of service when tried says why; none in service says each was tried anyway', () => {
    const { tries: run } = tries((pool) => {
      for (const replica of pool.replicas) pool.probeFailed(replica);
    });
    const refused = upstreamUnreachable('Could not reach the upstream backend gpu-1:8000: connection refused.', undefined);
    for (let i = 0; i < 3; i++) run.onTry(run.pick(), { error: refused });
    expect((run.failure(refused, 'gpu') as Error).message).toMatch(
      /^Backend "gpu": no replica could take the request \(none was in service, so each was tried anyway\)\. Tried (http:\/\/gpu-\d:8000\/v1 \(connection refused; out of service: its health probe fails\)(, |\.$)){3}/,
    );
  });

  test("the caller's own 4xx, or a failure that is not the last try's (the caller left), passes as it is", () => {
    const { tries: run } = tries();
    const refused = invalidRequest('top_k', 'top_k is out of range');
    run.onTry(run.pick(), { status: 400, error: refused });
    expect(run.failure(refused, 'gpu')).toBe(refused);
    const left = clientClosedRequest();
    expect(run.failure(left, 'gpu')).toBe(left);
  });
});
