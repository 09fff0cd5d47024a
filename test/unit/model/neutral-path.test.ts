/** Neutral paths are typed: a typo does not compile (checked by `npm run lint`'s tsc and by ts-jest). */
import { setPath } from '../../../src/dialects/field-table.js';
import type { NeutralPath } from '../../../src/model/neutral-path.js';
import { emptyRequest } from '../../../src/model/request.js';

test('setPath writes a typed path and records its origin', () => {
  const request = emptyRequest('text');
  const path: NeutralPath = 'sampling.mirostat.target';
  setPath(request, path, 5, 'mirostat_target');
  expect(request.sampling.mirostat).toEqual({ target: 5 });
  expect(request.origins['sampling.mirostat.target']).toBe('mirostat_target');
});

test('typos and paths into open records are not neutral paths', () => {
  // @ts-expect-error a typo
  const typo: NeutralPath = 'sampling.topk';
  // @ts-expect-error metadata is an open record: its keys are the caller's, not paths
  const intoRecord: NeutralPath = 'metadata.team';
  // @ts-expect-error bookkeeping is not a path
  const bookkeeping: NeutralPath = 'origins';
  expect([typo, intoRecord, bookkeeping]).toHaveLength(3);
});
