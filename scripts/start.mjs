/**
 * `npm start`: builds when a source is newer than the build (build-when-stale.mjs), then runs the
 * server in this same process: one Node start and one npm script, not two of each.
 */
import { buildWhenStale } from './build-when-stale.mjs';

buildWhenStale();
await import('../dist/src/cli.js');
