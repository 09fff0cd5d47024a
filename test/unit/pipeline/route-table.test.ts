/** RouteTable.listedModels: what `GET /v1/models` lists. */
import type { Adapter } from '../../../src/backend/adapter.js';
import type { RouteSettings } from '../../../src/config/settings.js';
import { RouteTable, type Backend } from '../../../src/pipeline/plan/route-table.js';

function backends(models: Record<string, readonly string[] | undefined>): Map<string, Backend> {
  return new Map(
    Object.entries(models).map(([name, served]) => [
      name,
      {
        name,
        settings: { kind: 'openai' },
        adapter: { name, ...(served ? { models: served } : {}) } as unknown as Adapter,
      },
    ]),
  );
}

const listed = (routes: RouteSettings[], served: Record<string, readonly string[] | undefined>) =>
  new RouteTable(routes, backends(served)).listedModels();

describe('RouteTable.listedModels', () => {
  test('a wildcard route lists the models its backend serves; without any, nothing', () => {
    expect(listed([{ model: '*', backend: 'local' }], { local: ['builtin'] })).toEqual([{ id: 'builtin', backend: 'local' }]);
    expect(listed([{ model: '*', backend: 'up' }], { up: undefined })).toEqual([]);
  });

  test('literal routes list their own names, as before', () => {
    expect(
      listed(
        [
          { model: 'gpt-4o', backend: 'up' },
          { model: 'other', backend: 'up' },
        ],
        { up: ['ignored'] },
      ),
    ).toEqual([
      { id: 'gpt-4o', backend: 'up' },
      { id: 'other', backend: 'up' },
    ]);
  });

  test("a route with fallbacks lists its first backend's models, owned by it", () => {
    expect(listed([{ model: '*', backend: ['main', 'spare'] }], { main: ['a'], spare: ['b'] })).toEqual([{ id: 'a', backend: 'main' }]);
  });

  test('each name once, listed by the route that serves it: an earlier route wins, a name outside the pattern is left out', () => {
    const routes: RouteSettings[] = [
      { model: 'gpt-4o', backend: 'openai' },
      { model: 'gpt-*', backend: 'openai' },
      { model: '*', backend: 'local' },
    ];
    expect(listed(routes, { openai: ['gpt-4o', 'gpt-4o-mini', 'o3'], local: ['builtin', 'gpt-4o-mini'] })).toEqual([
      { id: 'gpt-4o', backend: 'openai' },
      { id: 'gpt-4o-mini', backend: 'openai' },
      // `o3` does not match `gpt-*`; local's `gpt-4o-mini` would reach openai, so it is openai's alone.
      { id: 'builtin', backend: 'local' },
    ]);
  });
});
