/**
 * Waiting for a stream's first event: true when a keep-alive is due first,
 * that is when the backend has taken the request (`accepted`) and then stayed
 * silent for `keepAliveMs`. Until the backend has taken it, the wait is open:
 * the request may still fail as an ordinary HTTP error, or be retried.
 */
export async function firstEvent(first: Promise<unknown>, accepted: Promise<void>, keepAliveMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  const due = accepted.then(() => (settled ? false : new Promise<boolean>((resolve) => { timer = setTimeout(resolve, keepAliveMs, true); })));
  try {
    return await Promise.race([first.then(() => false, () => false), due]);
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}
