/**
 * undici's Agent, loaded alone. The package's index also loads fetch,
 * WebSocket, EventSource, its caches and mock agents, which a proxy never
 * uses: ~8 MB of idle memory (measured in a fresh process: the index +20.8 MB,
 * the Agent alone +12.7 MB). Requests go through `dispatch`
 * (upstream-exchange.ts), which the Agent has without the index's API methods.
 * The path is undici's own file; the version is pinned in package.json.
 */
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent } from 'undici';

const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
