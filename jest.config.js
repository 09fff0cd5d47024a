/** Jest in ESM mode with ts-jest (see DESIGN.md, toolchain facts). */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  setupFilesAfterEnv: ['<rootDir>/test/esm-bridge.ts'],
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  testTimeout: 30000,
};
