/**
 * The services suite: tests that need servers from Debian's packages (nginx, redis-server) on the machine.
 * `npm run test:services` runs it; .ci/run installs the packages first. A missing server fails a test here,
 * never skips it. `npm test` (Node alone) does not run this suite.
 */
import { shared } from './jest.config.js';

export default {
  projects: [{ ...shared, displayName: 'services', testMatch: ['<rootDir>/test/services/**/*.test.ts'] }],
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  testTimeout: 60000,
};
