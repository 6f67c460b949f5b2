// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The floors of src, lowest first. A folder imports only from its own floor and the floors below:
 * `contracts` (shipped to producers) imports nothing of src; `config`, `common`, `database`,
 * `queue` and `metrics` are infrastructure, each standing on the ones below it; the feature
 * modules stand on all of them; the wiring (process entry points, the root modules, the registry of
 * entities and jobs, bootstrap and the queue dashboard) stands on top.
 */
const FEATURES = [
  'activity-log',
  'assistant',
  'assistant-runtime',
  'audit',
  'auth',
  'call-version',
  'config-bundle',
  'health',
  'idempotency',
  'inbound-context',
  'lookup',
  'replay',
  'rollout',
  'secret',
  'tool',
];
const WIRING = ['bootstrap', 'admin'];
const FLOORS = [
  ['contracts'],
  ['config'],
  ['common', 'telemetry'],
  ['database'],
  ['queue'],
  ['metrics'],
  FEATURES,
];

const LAYER_ZONES = FLOORS.flatMap((floor, index) => {
  const above = [...FLOORS.slice(index + 1).flat(), ...WIRING].map(
    (folder) => `./src/${folder}/**`,
  );
  return floor.map((folder) => ({
    target: `./src/${folder}`,
    from: [...above, './src/*.ts'],
    message: `${folder} is on floor ${index + 1}: it imports only from its own floor and the floors below (contracts < config < common < database < queue < metrics < features < wiring).`,
  }));
});

/**
 * Every feature in the order they stand on one another, lowest first. A feature imports only from
 * the rungs below it, never from its own rung or above (type-only imports count too):
 * - the ground needs no other feature: the audit trail, the activity log, call-version (which
 *   version a call runs) and idempotency (they name the caller through common/auth);
 * - auth (keys, users, webhook secrets) and secret (the store, references and `/secret`) write
 *   audit entries; secret learns which resources reference a secret from the sources the modules
 *   above it register on `SecretUsage`, never by importing them;
 * - the assistant, and health (public routes, via auth's `Public`);
 * - tool and inbound-context (strategies, mappings, numbers) stand on the assistant and not on each
 *   other;
 * - lookup (the inbound lookup: routing table, plan, strategy webhook, outcome, dry run) reads
 *   inbound-context's mappings and strategies through its LookupRepository;
 * - assistant-runtime (the runtime view and publishing, which need an assistant and its tools
 *   together) and replay;
 * - config-bundle (configuration as code) on top: it reads and writes every feature.
 */
const FEATURE_STACK = [
  ['audit', 'activity-log', 'call-version', 'idempotency'],
  ['auth', 'secret'],
  ['assistant', 'health'],
  ['tool', 'inbound-context'],
  ['lookup'],
  ['assistant-runtime', 'replay', 'rollout'],
  ['config-bundle'],
];

const unplaced = FEATURES.filter((feature) => !FEATURE_STACK.flat().includes(feature));
if (unplaced.length) throw new Error(`FEATURE_STACK must place every feature: ${unplaced}`);

const FEATURE_ZONES = FEATURE_STACK.flatMap((rung, index) => {
  const aboveOrBeside = [...rung, ...FEATURE_STACK.slice(index + 1).flat()];
  return rung.map((folder) => ({
    target: `./src/${folder}`,
    from: aboveOrBeside.filter((other) => other !== folder).map((other) => `./src/${other}`),
    message: `${folder} must not depend on a feature beside or above it (${FEATURE_STACK.map((r) => r.join(' | ')).join(' < ')}): move the code up, or let the lower module declare what it needs.`,
  }));
}).filter((zone) => zone.from.length > 0);

/**
 * Module boundaries between features. A feature module owns its tables: another module reaches
 * them through the owner's exported service or repository, never its `*.entity.ts` (a type-only
 * import names a row's shape and is allowed; src/app-data-source.ts, the DataSource's registry in
 * the wiring, is the one other exception).
 */
const ENTITY_RULES = FEATURES.map((feature) => ({
  files: [`src/${feature}/**/*.ts`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: FEATURES.filter((other) => other !== feature).map(
              (other) => `**/${other}/**/*.entity`,
            ),
            allowTypeImports: true,
            message:
              "Another module's tables belong to it: use its exported service or repository.",
          },
        ],
      },
    ],
  },
}));

/**
 * The producer client package (packages/client) ships the contracts and the producer side of the
 * queues, compiled from src: it reaches nothing above the queue floor, so no Nest or TypeORM.
 */
const CLIENT_ZONE = {
  target: './packages/client/src',
  from: './src',
  except: ['./contracts', './config', './common', './queue'],
  message: 'The client package ships only contracts, config, common and queue code from src.',
};

const BOUNDARY_ZONES = [...FEATURE_ZONES, ...LAYER_ZONES, CLIENT_ZONE];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'packages/*/dist/**',
      'eslint.config.mjs',
      'jest.config.js',
      'test/setup/*.js',
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
  ...ENTITY_RULES,
  {
    // Size limits: a file over 300 lines holds more than one thing, a function over 60 more than one
    // step. `max-lines` counts every line, as `wc -l` does; a function's lines skip blanks and
    // comments. Specs, migrations (and their steps) and the generated metadata are exempt.
    files: ['src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: [
      'src/**/*.spec.ts',
      'packages/*/src/**/*.spec.ts',
      'src/**/migrations/**',
      'src/database/migration-steps/**',
    ],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': [
        'error',
        { max: 60, skipBlankLines: true, skipComments: true, IIFEs: false },
      ],
    },
  },
  {
    // Tests and benchmarks poke at untyped JSON bodies (supertest's `res.body` is `any`).
    files: ['test/**/*.ts', 'bench/**/*.ts', 'src/**/*.spec.ts', 'packages/*/src/**/*.spec.ts'],
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
