import { describeWithShared } from '../helpers/shared.js';

describe('describeWithShared', () => {
  const saved = process.env.CI;
  afterEach(() => {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  });

  test('skips where ../shared is absent, outside CI', () => {
    delete process.env.CI;
    expect(describeWithShared('/nonexistent/model.gguf')).toBe(describe.skip);
  });

  test('fails in CI instead of skipping', () => {
    process.env.CI = 'true';
    expect(() => describeWithShared('/nonexistent/model.gguf')).toThrow('CI must have ../shared');
  });

  test('runs where the files exist', () => {
    expect(describeWithShared('package.json')).toBe(describe);
  });
});
