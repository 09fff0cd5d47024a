/** adapters/replica-pool.ts and replica-health.ts: choices, passive ejection with a growing back-off, probes. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rankReplicas } from '../../../adapters/rendezvous-hash.js';
import { createHealthProber, probeUrl } from '../../../adapters/replica-health.js';
import { isReplicaFailure, ReplicaPool } from '../../../adapters/replica-pool.js';
import { upstreamTimeout, upstreamUnreachable } from '../../../src/errors/catalogue.js';
import { clientClosedRequest, ProxyError } from '../../../src/errors/proxy-error.js';

const urls = ['http://r1:8000/v1', 'http://r2:8000/v1', 'http://r3:8000/v1/'];
const unreachable = { error: upstreamUnreachable('no', undefined) };
const status = (code: number) => ({ status: code });

function poolWithClock(options: ConstructorParameters<typeof ReplicaPool>[1] = {}) {
  const clock = { now: 1_000_000 };
  const pool = new ReplicaPool(urls, { now: () => clock.now, ...options });
  return { pool, clock };
}

describe('ReplicaPool choices', () => {
  it("follows the key's rendezvous rank, skipping replicas tried or out of service", () => {
    const { pool } = poolWithClock();
    const rank = rankReplicas(
      'k',
      pool.replicas.map(({ base }) => base),
    );
    const plan = pool.plan('k');
    const first = plan.next();
    const second = plan.next();
    const third = plan.next();
    expect([first, second, third].map(({ replica }) => replica.base)).toEqual(rank);
    // All tried: it starts over from the first choice.
    expect(plan.next().replica.base).toBe(rank[0]);
    const out = pool.replicas.find(({ base }) => base === rank[0]);
    pool.probeFailed(out!);
    expect(pool.plan('k').next().replica.base).toBe(rank[1]);
  });

  it('without a key: the fewest outstanding, ties in turn; a release counts down once', () => {
    const { pool } = poolWithClock();
    const leases = [pool.plan().next(), pool.plan().next(), pool.plan().next()];
    expect(new Set(leases.map(({ replica }) => replica)).size).toBe(3);
    leases[1].release();
    leases[1].release();
    expect(pool.replicas.map(({ outstanding }) => outstanding).sort()).toEqual([0, 1, 1]);
    expect(pool.plan().next().replica).toBe(leases[1].replica);
  });

  it('sends to the replicas out of service when none is in service', () => {
    const { pool } = poolWithClock();
    for (const replica of pool.replicas) pool.probeFailed(replica);
    const plan = pool.plan('k');
    expect(new Set([plan.next(), plan.next(), plan.next()].map(({ replica }) => replica)).size).toBe(3);
  });

  it('labels replicas by URL without credentials or a trailing slash', () => {
    const pool = new ReplicaPool(['http://user:secret@r1:8000/v1/']);
    expect(pool.stats()).toEqual([{ replica: 'http://r1:8000/v1', state: 'healthy', outstanding: 0, ejections: 0 }]);
  });
});

describe('passive health', () => {
  it('ejects after `failures` in a row, for a back-off that doubles while it keeps failing, up to maxMs', () => {
    const { pool, clock } = poolWithClock({ ejection: { failures: 2, baseMs: 1000, maxMs: 3000 } });
    const [r1] = pool.replicas;
    pool.report(r1, unreachable);
    expect(pool.state(r1)).toBe('healthy');
    pool.report(r1, status(503));
    expect(pool.state(r1)).toBe('ejected');
    // Requests already under way that fail do not extend it.
    pool.report(r1, status(502));
    clock.now += 999;
    expect(pool.state(r1)).toBe('ejected');
    clock.now += 1;
    expect(pool.state(r1)).toBe('healthy');
    pool.report(r1, status(500)); // back, and failing at once: 2 s
    expect(pool.state(r1)).toBe('ejected');
    clock.now += 1999;
    expect(pool.state(r1)).toBe('ejected');
    clock.now += 1;
    pool.report(r1, unreachable); // then 3 s (maxMs), not 4
    clock.now += 2999;
    expect(pool.state(r1)).toBe('ejected');
    clock.now += 1;
    expect(pool.state(r1)).toBe('healthy');
    expect(pool.stats()[0].ejections).toBe(3);
    pool.report(r1, status(200)); // a success resets the back-off
    pool.report(r1, status(500));
    expect(pool.state(r1)).toBe('healthy');
    pool.report(r1, status(500));
    clock.now += 1000;
    expect(pool.state(r1)).toBe('healthy');
  });

  it('counts connection failures, timeouts and 5xx; not 429, 4xx or the caller leaving', () => {
    expect(isReplicaFailure(unreachable)).toBe(true);
    expect(isReplicaFailure({ error: upstreamTimeout('slow') })).toBe(true);
    expect(isReplicaFailure({ status: 503, error: new ProxyError({ status: 502, type: 'upstream_error', message: 'x' }) })).toBe(true);
    expect(isReplicaFailure(status(429))).toBe(false);
    expect(isReplicaFailure(status(400))).toBe(false);
    expect(isReplicaFailure({ error: clientClosedRequest() })).toBe(false);
    const { pool } = poolWithClock({ ejection: { failures: 1 } });
    pool.report(pool.replicas[0], status(429));
    expect(pool.state(pool.replicas[0])).toBe('healthy');
  });

  it('never ejects with failures: 0', () => {
    const { pool } = poolWithClock({ ejection: { failures: 0 } });
    for (let i = 0; i < 10; i++) pool.report(pool.replicas[0], unreachable);
    expect(pool.state(pool.replicas[0])).toBe('healthy');
  });
});

describe('active health', () => {
  it('resolves the probe path against the replica URL', () => {
    expect(probeUrl('http://r1:8000/v1', '/health')).toBe('http://r1:8000/health');
    expect(probeUrl('http://r1:8000/v1/', 'models')).toBe('http://r1:8000/v1/models');
  });

  it('marks a replica down after `failures` failed probes, and back (ending an ejection) on one success', async () => {
    let healthy = false;
    const server: Server = createServer((req, res) => {
      res.writeHead(req.url === '/health' && healthy ? 200 : 503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const pool = new ReplicaPool([`http://127.0.0.1:${port}/v1`], { ejection: { failures: 1, baseMs: 60_000 } });
    const prober = createHealthProber(pool, { path: '/health', intervalMs: 60_000, timeoutMs: 500, failures: 2 });
    const [replica] = pool.replicas;
    try {
      await prober.probeAll();
      expect(pool.state(replica)).toBe('healthy');
      await prober.probeAll();
      expect(pool.state(replica)).toBe('down');
      healthy = true;
      pool.report(replica, status(500));
      await prober.probeAll();
      expect(pool.state(replica)).toBe('healthy');
    } finally {
      await prober.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
