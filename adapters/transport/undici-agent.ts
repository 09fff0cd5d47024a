/**
 * undici's Agent, loaded alone: the package's index loads much a proxy never
 * uses (docs/performance.md, "Transport"). Requests go through `dispatch`
 * (upstream-exchange.ts). The path is undici's own file; the version is pinned.
 */
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent } from 'undici';

const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
