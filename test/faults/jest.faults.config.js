/**
 * `npm run test:faults`: fault injection against a private Redis and a private MariaDB that the
 * tests start, stop, kill and restart themselves (test/faults/support/services.ts). Run in band:
 * the scenarios time recoveries and must not compete for the two cores.
 */
module.exports = {
  rootDir: '../..',
  displayName: 'faults',
  testEnvironment: 'node',
  moduleFileExtensions: ['js', 'json', 'ts'],
  testMatch: ['<rootDir>/test/faults/**/*.faults-spec.ts'],
  setupFiles: ['<rootDir>/test/faults/support/env.ts'],
  moduleNameMapper: {
    '^@voice-assistant-config/client$': '<rootDir>/packages/client/src/index.ts',
  },
  transform: { '^.+\\.ts$': '<rootDir>/test/setup/ts-transformer.js' },
  testTimeout: 240_000,
  maxWorkers: 1,
  // Bull and ioredis keep reconnect timers alive for a moment after close().
  forceExit: true,
};
