/**
 * `npm run test:image` (after `npm run build`): the built service as the image runs it — compiled
 * entry points and migrations, a non-root user, an empty data directory. Docker itself is not needed.
 */
module.exports = {
  rootDir: '../..',
  displayName: 'image',
  testEnvironment: 'node',
  moduleFileExtensions: ['js', 'json', 'ts'],
  testMatch: ['<rootDir>/test/image/**/*.image-spec.ts'],
  transform: { '^.+\\.ts$': '<rootDir>/test/setup/ts-transformer.js' },
  testTimeout: 120_000,
  maxWorkers: 1,
};
