import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const appsMayOnlyUse = ['type:contracts', 'type:platform'];

// What each kind of project may import. Test helpers (`type:testing`, libs/platform/testing) are not in
// it: production code never loads them or their dev dependencies. Test code gets them below.
const typeConstraints = [
  // An app never imports another app; contexts meet only through contracts and platform.
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: appsMayOnlyUse.concat('type:data-access') },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: appsMayOnlyUse },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  // Test helpers start the stack (runner, persistence) and call it through the SDK.
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:testing', 'type:platform', 'type:contracts'] },
  // The web console runs in a browser and reaches the system only through the published SDK.
  { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:sdk'] },
  // The cross-cutting suites (tests/: e2e, reliability) and the benches may use any library.
  { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['*'] },
  // scripts/: npm start's runner, the migration job, the e2e runner and the OpenAPI writer, which starts the gateway's module.
  { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['*'] },
];
const scopeConstraints = [
  // The identity model (orgs, keys, members) belongs to the gateway; admin is its operator tool.
  { sourceTag: 'scope:identity', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:tables', onlyDependOnLibsWithTags: ['scope:shared', 'scope:tables'] },
  { sourceTag: 'scope:webhooks', onlyDependOnLibsWithTags: ['scope:shared', 'scope:webhooks'] },
  { sourceTag: 'scope:domains', onlyDependOnLibsWithTags: ['scope:shared', 'scope:domains'] },
  { sourceTag: 'scope:calendar', onlyDependOnLibsWithTags: ['scope:shared', 'scope:calendar'] },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway', 'scope:identity'] },
  { sourceTag: 'scope:admin', onlyDependOnLibsWithTags: ['scope:shared', 'scope:admin', 'scope:identity'] },
  { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:shared'] },
];
const moduleBoundaries = (depConstraints, allow = []) => [
  'error',
  { enforceBuildableLibDependency: false, allow, depConstraints: depConstraints.concat(scopeConstraints) },
];
// The rule judges by project, not by file: a spec inside an app belongs to the app. So test files get
// the same constraints plus the test helpers.
const withTestHelpers = typeConstraints.map((c) =>
  c.onlyDependOnLibsWithTags.includes('*') ? c : { ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, 'type:testing'] },
);
const testFiles = ['**/*.spec.ts', '**/*.spec.tsx', '**/*.e2e-spec.ts', '**/*.reliability-spec.ts', '**/*.cluster-spec.ts', '**/test/**/*.ts', 'tests/**/*.ts', 'bench/**/*.ts'];

export default [
  { ignores: ['**/dist', '**/node_modules', '**/coverage', '.nx/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': moduleBoundaries(typeConstraints),
    },
  },
  {
    // The OpenAPI writer builds the gateway's module, as the gateway does, to read the routes it serves.
    files: ['scripts/openapi.ts'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(typeConstraints, ['../apps/gateway/src/**']) },
  },
  {
    files: testFiles,
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(withTestHelpers) },
  },
  {
    // Tests and benches read JSON answers of any shape; the global setup loads the compiled launcher at run time.
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts', 'tests/**/*.ts', 'bench/**/*.ts', 'libs/platform/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
];
