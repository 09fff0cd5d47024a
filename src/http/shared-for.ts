/** `render`, called at most once per `ms`: every caller within it shares the same answer (a failure is not kept). */
export function sharedFor<T>(ms: number, render: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (last && now - last.at < ms) return last.value;
    const value = render();
    const entry = { at: now, value };
    last = entry;
    value.catch(() => {
      if (last === entry) last = undefined;
    });
    return value;
  };
}
