/** Interleaves several async iterables as their items arrive; returning early closes every source. */
export async function* mergeStreams<T>(sources: readonly AsyncIterable<T>[]): AsyncGenerator<T> {
  const iterators = sources.map((source) => source[Symbol.asyncIterator]());
  const pending = new Map<number, Promise<{ index: number; result: IteratorResult<T> }>>();
  const pull = (index: number) =>
    pending.set(
      index,
      iterators[index].next().then((result) => ({ index, result })),
    );
  iterators.forEach((_, index) => pull(index));
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(index);
        continue;
      }
      pull(index);
      yield result.value;
    }
  } finally {
    // Unfinished sources are closed so their upstream requests abort.
    await Promise.allSettled([...pending.keys()].map((index) => iterators[index].return?.()));
  }
}
