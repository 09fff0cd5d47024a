/**
 * Jest in ESM mode with ts-jest: TypeScript 5.9, ts-jest 29, run with NODE_OPTIONS=--experimental-vm-modules (npm test sets it).
 * ts-jest only transpiles (tsconfig.json's isolatedModules): the types are checked by `npm run lint`'s tsc.
 *
 * Projects; `npm test` runs them all, `--selectProjects <name>` some (npm run test:unit: unit, in seconds).
 *   unit      test/unit, in process, no build, no model: the fast loop while editing
 *   unit-slow the test/unit files slow by nature (below), in process, no build
 *   security  test/security: hostile input against a running proxy, with budgets timed (in process, no build)
 *   golden    test/golden: the golden cases, in process
 *   engine    the bundled llama.cpp engine with a real model (worker threads, model loads) or its library
 *   cli       what runs the build (dist/, which `npm test` makes first): the dialect-proxy command in its own
 *             process (test/cli-golden, the audit command's 64 MB heap run) and the compiled validators
 *   e2e       test/e2e: clients and real proxy processes (some run dist/src/cli.js)
 *
 * Tests that need system services (nginx, redis-server from Debian) are not here: they are the services
 * suite (jest.services.config.js, `npm run test:services`), which .ci/run installs those packages for and runs.
 */

/** Unit-folder tests that need dist/: they run in the cli project (redis-client-loading: node on dist/, 3 s). */
const needsBuild = [
  'test/unit/audit-command.test.ts',
  'test/unit/validation/compiled-validators.test.ts',
  'test/unit/response-store/redis-client-loading.test.ts',
];
/**
 * Unit-folder tests that start the llama.cpp engine or load its library (seconds each): they run in the
 * engine project. The files of pure logic they came with (tool-call-grammar, custom-tools,
 * llama-cpp-capabilities) stay in unit.
 */
const startsEngine = [
  'test/unit/llama-cpp/worker-host.test.ts',
  'test/unit/llama-cpp/builtin-and-sources.test.ts',
  'test/unit/llama-cpp/llama-cpp-adapter.test.ts',
  'test/unit/llama-cpp/json-schema-grammar.test.ts',
  'test/unit/llama-cpp/worker-process.test.ts',
  'test/unit/pipeline/tool-call-grammar-on-worker.test.ts',
  'test/unit/pipeline/custom-tools-on-worker.test.ts',
];
/**
 * Unit-folder tests slow by nature (seconds of CPU each): they run in the unit-slow project.
 *   neutral-path: the TypeScript compiler type-checks the file (its @ts-expect-error lines)
 *   chunk-frames: the fast SSE frame encoders against encodeSseData, 1500-3000 property runs a test
 *   reference-specs, request-fields-specs: our documents and field tables against the reference specs in
 *     ../shared, which each parses (YAML, OpenAI's newest is 3 MB); request-fields-guard keeps our own documents
 */
const slowByNature = [
  'test/unit/model/neutral-path.test.ts',
  'test/unit/streaming/chunk-frames.test.ts',
  'test/unit/validation/reference-specs.test.ts',
  'test/unit/dialects/request/request-fields-specs.test.ts',
];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What every project runs with (options Jest reads per project). */
export const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // The compiled validators' import of the build's formats: src's, since the global setup writes them without a build.
    '^\\.\\./src/validation/validator-formats\\.js$': '<rootDir>/src/validation/validator-formats.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  // dist/validators when missing or stale: loaded in milliseconds by each test file instead of compiled in seconds.
  globalSetup: '<rootDir>/test/helpers/compiled-validators-setup.mjs',
};

export default {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...[...needsBuild, ...startsEngine, ...slowByNature].map((file) => `/${escape(file)}$`)],
    },
    { ...shared, displayName: 'unit-slow', testMatch: slowByNature.map((file) => `<rootDir>/${file}`) },
    { ...shared, displayName: 'security', testMatch: ['<rootDir>/test/security/**/*.test.ts'] },
    { ...shared, displayName: 'engine', testMatch: startsEngine.map((file) => `<rootDir>/${file}`) },
    { ...shared, displayName: 'golden', testMatch: ['<rootDir>/test/golden/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'cli',
      testMatch: ['<rootDir>/test/cli-golden/**/*.test.ts', ...needsBuild.map((file) => `<rootDir>/${file}`)],
    },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
  ],
  // Global options: Jest reads these for the whole run, not per project.
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  testTimeout: 30000,
  // A worker's process takes 0.5-0.65 s to end on a loaded 2-core machine once its heap is ~650 MB, though its
  // event loop is empty at once (measured; --detectOpenHandles finds nothing): past the default 500 ms, Jest
  // kills it and reports a leak ("failed to exit gracefully") that is not there. A real leak still shows, at 2 s.
  workerGracefulExitTimeout: 2000,
};
