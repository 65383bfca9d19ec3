/** Two projects: fast unit specs beside the code, e2e specs in test/ against PostgreSQL. */
// Transpile only (no type check: `npm run typecheck` does that), via tsconfig's isolatedModules.
const tsJest = ['ts-jest', { tsconfig: { isolatedModules: true }, diagnostics: false }];
module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/architecture/*.spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
      // One migrated template database per run, one clone per worker (test/support/).
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['<rootDir>/test/support/worker-env.ts'],
    },
  ],
};
