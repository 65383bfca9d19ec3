/**
 * Which database failures are the database's state rather than the request's fault, so the API
 * answers 503 with Retry-After (clients back off and try again) instead of 500:
 *
 * - `unavailable`: the server cannot be reached or is not serving (connection refused or
 *   reset, shutting down, restarting, in recovery, too many connections). One outage, logged
 *   once by DatabaseOutage.
 * - `busy`: the server answers but this request could not be served in time (no pool
 *   connection within DATABASE_POOL_TIMEOUT_MS, or statement_timeout cancelled the query).
 */
export type DatabaseFailure = 'unavailable' | 'busy';

/**
 * Retry-After (seconds) of a 503 caused by the database's state: an outage usually lasts
 * seconds (a restart, a fail-over); a busy pool frees up sooner.
 */
export const DATABASE_RETRY_AFTER: Record<DatabaseFailure, string> = {
  unavailable: '2',
  busy: '1',
};

/** SQLSTATEs of a server that is not serving: class 08 (connection) and these. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown (fast or immediate shutdown)
  '57P02', // crash_shutdown (another backend crashed)
  '57P03', // cannot_connect_now (starting up, in recovery, shutting down)
  '57P05', // idle_session_timeout on a connection the pool kept
  '53300', // too_many_connections
  '58030', // io_error
]);

const BUSY_SQLSTATES = new Set([
  '57014', // query_canceled: statement_timeout (or pg_cancel_backend)
  '55P03', // lock_not_available: lock_timeout
]);

/** Node socket errors of a server that is down or unreachable. */
const UNAVAILABLE_SYSCALL_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Messages of node-postgres for a connection lost or never made (they carry no code). */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/i, // unexpectedly, or due to connection timeout
  /Client has encountered a connection error and is not queryable/i,
  /^Client was closed and is not queryable/i,
  /the database system is (starting up|shutting down|in recovery mode|not yet accepting)/i,
];
/**
 * TypeORM's errors for a transaction whose connection was released under it: what a request
 * sees when its connection died halfway (a bug using a released runner outside an outage
 * still shows: DatabaseOutage's probe then finds the database answering and says so).
 */
const RELEASED_RUNNER_ERRORS = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);
/** pg-pool's answer when no connection was free within connectionTimeoutMillis. */
const POOL_TIMEOUT = /^timeout exceeded when trying to connect/i;

/** Classifies an error (a TypeORM QueryFailedError, a pg error, a socket error) or null. */
export function classifyDatabaseFailure(error: unknown): DatabaseFailure | null {
  let busy = false;
  for (const candidate of causes(error)) {
    const code = typeof candidate.code === 'string' ? candidate.code : undefined;
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (code && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code))) return 'unavailable';
    if (code && UNAVAILABLE_SYSCALL_CODES.has(code)) return 'unavailable';
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return 'unavailable';
    if (typeof candidate.name === 'string' && RELEASED_RUNNER_ERRORS.has(candidate.name)) {
      return 'unavailable';
    }
    if ((code && BUSY_SQLSTATES.has(code)) || POOL_TIMEOUT.test(message)) busy = true;
  }
  return busy ? 'busy' : null;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return classifyDatabaseFailure(error) === 'unavailable';
}

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The error and what it wraps: TypeORM's driverError, `cause`, AggregateError's errors. */
function* causes(error: unknown, depth = 0): Generator<ErrorLike> {
  if (!error || typeof error !== 'object' || depth > 4) return;
  const e = error as ErrorLike;
  yield e;
  yield* causes(e.driverError, depth + 1);
  yield* causes(e.cause, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors) yield* causes(inner, depth + 1);
}
