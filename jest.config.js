/** Two projects: fast unit specs beside the code, e2e specs in test/ against PostgreSQL. */
const tsJest = ['ts-jest', { isolatedModules: true, diagnostics: false }];
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
      globalSetup: '<rootDir>/test/support/global-setup.js',
      globalTeardown: '<rootDir>/test/support/global-teardown.js',
      setupFiles: ['<rootDir>/test/support/worker-env.js'],
      testTimeout: 60000,
    },
  ],
};
