/**
 * Jest in ESM mode with ts-jest: TypeScript 5.9, ts-jest 29, run with NODE_OPTIONS=--experimental-vm-modules (npm test sets it).
 * ts-jest only transpiles (tsconfig.json's isolatedModules): the types are checked by `npm run lint`'s tsc.
 *
 * Projects; `npm test` runs them all, `--selectProjects <name>` some (npm run test:unit: unit, in seconds).
 *   unit      test/unit, in process, no build, no model: the fast loop while editing
 *   security  test/security: hostile input against a running proxy, with budgets timed (in process, no build)
 *   golden    test/golden: the golden cases, in process
 *   engine    the bundled llama.cpp engine with a real model (worker threads, model loads)
 *   cli       what runs the build (dist/, which `npm test` makes first): the dialect-proxy command in its own
 *             process (test/cli-golden, the audit command's 64 MB heap run) and the compiled validators
 *   e2e       test/e2e: clients and real proxy processes (some run dist/src/cli.js)
 *
 * Tests that need system services (nginx, redis-server from Debian) are not here: they are the services
 * suite (jest.services.config.js, `npm run test:services`), which .ci/run installs those packages for and runs.
 */

/** Unit-folder tests that need dist/: they run in the cli project. */
const needsBuild = ['test/unit/audit-command.test.ts', 'test/unit/validation/compiled-validators.test.ts'];
/** Unit-folder tests that start the llama.cpp engine (seconds each): they run in the engine project. */
const startsEngine = ['test/unit/llama-cpp/worker-host.test.ts', 'test/unit/llama-cpp/builtin-and-sources.test.ts'];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What every project runs with (options Jest reads per project). */
export const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
};

export default {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...[...needsBuild, ...startsEngine].map((file) => `/${escape(file)}$`)],
    },
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
};
