/**
 * Two projects: unit tests live beside the code (src/**\/*.spec.ts); e2e tests live in test/
 * and boot the whole application against MySQL + Redis when DATABASE_URL / REDIS_URL are set,
 * or against the embedded SQLite + in-process jobs otherwise.
 */
// The OTLP exporter's `import('http')`, which Jest's vm cannot run, as `require` (see the transformer).
const otlpExporterBase = '@opentelemetry/otlp-exporter-base';
const transform = {
  [`/node_modules/${otlpExporterBase}/.+\\.js$`]: '<rootDir>/test/setup/dynamic-import-transformer.js',
  // TypeScript as `nest build` emits it, Swagger plugin included (see the transformer for why not ts-jest).
  '^.+\\.ts$': '<rootDir>/test/setup/ts-transformer.js',
};

// The producer client package, from its source (no build needed before the tests).
const moduleNameMapper = {
  '^@voice-assistant-config/client$': '<rootDir>/packages/client/src/index.ts',
};

module.exports = {
  projects: [
    {
      displayName: 'unit',
      rootDir: '.',
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/packages/*/src/**/*.spec.ts'],
      moduleNameMapper,
      setupFiles: ['<rootDir>/test/setup/unit-env.ts'],
      transform,
      transformIgnorePatterns: [`/node_modules/(?!${otlpExporterBase}/)`],
    },
    {
      displayName: 'e2e',
      rootDir: '.',
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      moduleNameMapper,
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      setupFiles: ['<rootDir>/test/setup/env.ts'],
      transform,
      transformIgnorePatterns: [`/node_modules/(?!${otlpExporterBase}/)`],
    },
  ],
  testTimeout: 30000,
  // Two files at a time, each in a worker process that is replaced once it holds more than 1 GB
  // after a file. With one worker Jest runs every file inside its own single process: the heaps of ~80 app
  // boots pile up there (3.7 GB seen), garbage collection slows every later file, and setups
  // that take a second alone ran past their 30 s. The files are written to run side by side
  // (each has its own Bull prefix, users and, where it changes shared state, its own database).
  maxWorkers: 2,
  workerIdleMemoryLimit: '1GB',
  // Bull keeps reconnecting sockets open for a moment after close(); do not let them hold the run.
  forceExit: true,
};
