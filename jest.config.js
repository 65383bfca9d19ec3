/**
 * Three projects: fast unit specs beside the code, e2e specs in test/ against PostgreSQL, and
 * `compat`: specs that read files from outside the repository (the reference service's
 * OpenAPI), run by `npm run test:compat` where those files are (CI), never by `npm test`.
 */
// Transpile only (no type check: `npm run typecheck` does that), via tsconfig's isolatedModules.
const tsJest = ['ts-jest', { tsconfig: { isolatedModules: true }, diagnostics: false }];
const outsideFiles = ['<rootDir>/test/compat/reference-openapi.e2e-spec.ts'];
const e2e = {
  testEnvironment: 'node',
  rootDir: '.',
  transform: { '^.+\\.ts$': tsJest },
  // One migrated template database per run, one clone per worker (test/support/).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/worker-env.ts'],
};
module.exports = {
  testTimeout: 60000,
  // The console's own packages and bundle are not the service's modules.
  modulePathIgnorePatterns: ['<rootDir>/admin/node_modules', '<rootDir>/admin/dist'],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/test/architecture/*.spec.ts',
        // The console's pure rules (admin/src): plain TypeScript, no DOM.
        '<rootDir>/admin/src/**/*.spec.ts',
      ],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      ...e2e,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...outsideFiles],
    },
    { ...e2e, displayName: 'compat', testMatch: outsideFiles },
  ],
};
