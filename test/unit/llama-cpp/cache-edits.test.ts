import { CacheEdits } from '../../../adapters/llama-cpp/cache-edits.js';

describe('CacheEdits', () => {
  it('sets pause while edits are pending and clears it when the last one ends', async () => {
    const edits = new CacheEdits();
    expect(edits.pause).toBeUndefined();
    let finishFirst!: () => void;
    const first = edits.run(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    const pause = edits.pause;
    expect(pause).toBeInstanceOf(Promise);
    const second = edits.run(async () => 'second');
    expect(await second).toBe('second');
    expect(edits.pause).toBe(pause); // the first edit still runs
    let resumed = false;
    void pause?.then(() => (resumed = true));
    finishFirst();
    await first;
    await Promise.resolve();
    expect(resumed).toBe(true);
    expect(edits.pause).toBeUndefined();
  });

  it('resumes the loops when an edit fails', async () => {
    const edits = new CacheEdits();
    await expect(edits.run(async () => Promise.reject(new Error('edit failed')))).rejects.toThrow('edit failed');
    expect(edits.pause).toBeUndefined();
  });
});
