/**
 * Runs in every e2e test file's sandbox before the file: points DATABASE_URL at this worker's
 * own database (cloned from the migrated template) and keeps the logs quiet.
 */
const pattern = process.env.E2E_DATABASE_URL_PATTERN;
if (!pattern) throw new Error('E2E_DATABASE_URL_PATTERN is unset: run e2e specs through jest');
process.env.DATABASE_URL = pattern.replace('{worker}', process.env.JEST_WORKER_ID ?? '1');
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
// The template is already migrated; an app started by a test need not check again.
process.env.MIGRATE_ON_START = 'false';
// Every route counts against the API budgets (README "API conventions"): specs make far more
// requests than any client, so their budgets are out of reach unless a spec sets its own.
process.env.API_RATE_LIMIT_PER_CALLER = '100000000';
process.env.API_RATE_LIMIT_PER_TEAM = '100000000';
process.env.API_RATE_LIMIT_PER_ADDRESS = '100000000';
