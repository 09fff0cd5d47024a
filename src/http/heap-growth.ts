/**
 * The standalone server's garbage collection: a full collection each time the
 * heap has doubled since the last one (V8's `--heap-growing-percent=100`, the
 * policy of Go's GOGC=100), unless the operator chose another
 * (`node --heap-growing-percent=N dist/src/cli.js`; NODE_OPTIONS refuses the flag). V8's own
 * factor grows up to 4x when its collector is fast: under 500 streams the old
 * generation filled with the garbage of short-lived requests, to 1.6x the peak
 * memory of Express + http-proxy-middleware, with about 30 MB live
 * (docs/performance.md, "Memory"). Only the CLI sets it: in a host app the
 * process is the app's.
 */
import v8 from 'node:v8';

export const HEAP_GROWTH_FLAG = '--heap-growing-percent=100';

/** Sets the flag (through `set`) unless the process was started with one of its own; says whether it did. */
export function limitHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  set = (flag: string) => v8.setFlagsFromString(flag),
): boolean {
  if (execArgv.some((given) => /^--heap[-_]growing[-_]percent/.test(given))) return false;
  set(HEAP_GROWTH_FLAG);
  return true;
}
