/** src/validation, loaded after test/esm-bridge.ts has made openapi-backend loadable under Jest. */
export const validation = await import('../../../src/validation/index.js');
