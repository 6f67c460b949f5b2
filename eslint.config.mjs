// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries. A feature module owns its tables: another module reaches them through the
 * owner's exported service or repository, never its `*.entity.ts` (src/database/entities.ts, the
 * DataSource's registry, is the one exception). Features may import the shared layers (common,
 * config, database, queue, contracts, metrics) and each other's public files; the shared layers
 * common, config, queue and metrics import no feature, and no feature imports the process wiring.
 */
const FEATURES = [
  'activity-log',
  'assistant',
  'assistant-runtime',
  'auth',
  'call-version',
  'health',
  'inbound-context',
  'tool',
];
const BOUNDARY_ZONES = [
  ...FEATURES.flatMap((feature) =>
    FEATURES.filter((other) => other !== feature).map((other) => ({
      target: `./src/${feature}`,
      from: `./src/${other}/**/*.entity.ts`,
      message: `${other}'s tables belong to it: use its exported service or repository.`,
    })),
  ),
  ...['common', 'config', 'queue', 'metrics'].map((shared) => ({
    target: `./src/${shared}`,
    from: FEATURES.map((feature) => `./src/${feature}/**`),
    message: 'Shared layers do not depend on feature modules.',
  })),
  ...FEATURES.map((feature) => ({
    target: `./src/${feature}`,
    from: ['./src/client/**', './src/bootstrap/**', './src/admin/**', './src/*.ts'],
    message: 'Feature modules do not depend on the process wiring or the producer clients.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'eslint.config.mjs',
      'jest.config.js',
      'test/setup/*.js',
      'src/metadata.ts',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling'],
          'newlines-between': 'never',
        },
      ],
      'import-x/no-duplicates': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: BOUNDARY_ZONES }],
    },
  },
  {
    // Tests and benchmarks poke at untyped JSON bodies (supertest's `res.body` is `any`).
    files: ['test/**/*.ts', 'bench/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
