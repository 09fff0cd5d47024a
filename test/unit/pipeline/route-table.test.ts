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

describe('RouteTable.match: a model no route serves', () => {
  test('the 404 lists the route patterns in order, each once', () => {
    const table = new RouteTable(
      [
        { model: 'gpt-4o', backend: 'up' },
        { model: 'claude-*', backend: 'up' },
        { model: 'gpt-4o', backend: 'other' },
      ],
      backends({ up: undefined, other: undefined }),
    );
    expect(() => table.match('gpt-9')).toThrow(
      expect.objectContaining({
        status: 404,
        param: 'model',
        code: 'model_not_found',
        message:
          'The model `gpt-9` does not exist or no route serves it. Served here: `gpt-4o`, `claude-*` (GET /v1/models lists the models).',
      }),
    );
  });

  test('a model name past 256 characters is cut in the message, never between a surrogate pair', () => {
    const table = new RouteTable([{ model: 'gpt-4o', backend: 'up' }], backends({ up: undefined }));
    const model = `${'m'.repeat(255)}😀${'x'.repeat(1_000_000)}`;
    const error = (() => {
      try {
        table.match(model);
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error?.message).toContain(`\`${'m'.repeat(255)}…[truncated: ${model.length} chars]\``);
    expect(error!.message.length).toBeLessThan(400);
  });

  test('a long list is cut within its budget: at most 10 names, then "and N more"', () => {
    const routes = Array.from({ length: 25 }, (_, i) => ({ model: `model-${i}`, backend: 'up' }));
    const error = (() => {
      try {
        new RouteTable(routes, backends({ up: undefined })).match('nope');
      } catch (thrown) {
        return thrown as Error;
      }
      throw new Error('expected a 404');
    })();
    expect(error.message).toBe(
      'The model `nope` does not exist or no route serves it. Served here: ' +
        Array.from({ length: 10 }, (_, i) => `\`model-${i}\``).join(', ') +
        ' and 15 more (GET /v1/models lists the models).',
    );
    // Long names: the character budget cuts first.
    const long = Array.from({ length: 5 }, (_, i) => ({ model: `${'x'.repeat(120)}-${i}`, backend: 'up' }));
    expect(() => new RouteTable(long, backends({ up: undefined })).match('nope')).toThrow(/-1` and 3 more \(GET/);
  });
});
