// `node --import ./test/helpers/otel-import-watch.mjs ...`: records which @opentelemetry/* packages
// the process imports (otel-import-hooks.mjs), so a test can see that tracing off loads none.
import { register } from 'node:module';

register('./otel-import-hooks.mjs', import.meta.url);
