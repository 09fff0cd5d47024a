/** What /healthz says of the backends (src/pipeline/backend-health.ts): degraded only when a pool has no replica in service. */
import type { Adapter, ReplicaStat } from '../../../src/backend/adapter.js';
import { backendHealth } from '../../../src/pipeline/backend-health.js';
import type { Backend } from '../../../src/pipeline/plan/route-table.js';

const backend = (name: string, replicas?: ReplicaStat['state'][]): [string, Backend] => [
  name,
  {
    name,
    settings: { kind: 'vllm' },
    adapter: {
      name,
      ...(replicas
        ? {
            stats: {
              replicas: () => replicas.map((state, i) => ({ replica: `http://${name}-${i}:8000/v1`, state, outstanding: 0, ejections: 0 })),
            },
          }
        : {}),
    } as unknown as Adapter,
  },
];

describe('backendHealth', () => {
  test('ok while every pool has a replica in service; a single url has no health of its own', () => {
    expect(backendHealth(new Map([backend('single'), backend('pool', ['down', 'ejected', 'healthy'])]))).toEqual({ status: 'ok' });
  });

  test('degraded naming each pool with none in service, and its replicas', () => {
    expect(backendHealth(new Map([backend('single'), backend('gpu', ['down', 'ejected']), backend('cpu', ['healthy'])]))).toEqual({
      status: 'degraded',
      unavailable: [{ backend: 'gpu', replicas: { 'http://gpu-0:8000/v1': 'down', 'http://gpu-1:8000/v1': 'ejected' } }],
    });
  });
});
