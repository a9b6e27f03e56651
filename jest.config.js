// Unit specs sit beside the code (*.spec.ts); end-to-end specs (*.e2e-spec.ts) run against the real
// stack that the global setup starts on this machine's Postgres, Redis and NATS. Reliability specs
// (*.reliability-spec.ts) start their own stacks: `npm run test:reliability`. Cluster specs
// (*.cluster-spec.ts) start three hosts of their own: `npm run test:cluster`.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.base.json');

const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json', diagnostics: false }] };
const moduleNameMapper = pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' });
const shared = { rootDir: __dirname, testEnvironment: 'node', setupFiles: ['reflect-metadata'], transform, moduleNameMapper, moduleFileExtensions: ['ts', 'js', 'json'] };

module.exports = {
  testTimeout: 60_000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,bench}/**/*.spec.ts', '<rootDir>/tests/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/{apps,libs,tests}/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/libs/platform/testing/src/global-setup.ts',
      globalTeardown: '<rootDir>/libs/platform/testing/src/global-teardown.ts',
    },
    // Fault injection: each spec starts a stack on private Postgres, Redis and NATS; run serially (--runInBand).
    { ...shared, displayName: 'reliability', testMatch: ['<rootDir>/tests/reliability/**/*.reliability-spec.ts'] },
    // Three hosts in network namespaces (needs root): `npm run test:cluster`.
    { ...shared, displayName: 'cluster', testMatch: ['<rootDir>/tests/cluster/**/*.cluster-spec.ts'] },
  ],
};
