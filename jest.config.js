/** Jest in ESM mode with ts-jest: TypeScript 5.9, ts-jest 29, run with NODE_OPTIONS=--experimental-vm-modules (npm test sets it). */
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
