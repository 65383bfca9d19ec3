import { QueryFailedError } from 'typeorm';
import { classifyDatabaseFailure } from './database-failure';

const withCode = (code: string, message = 'db') => Object.assign(new Error(message), { code });
const queryFailed = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

describe('classifyDatabaseFailure', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['08006', 'connection failure'],
    ['08001', 'could not connect'],
    ['53300', 'sorry, too many clients already'],
  ])('a server not serving (%s) is unavailable', (code, message) => {
    expect(classifyDatabaseFailure(queryFailed(withCode(code, message)))).toBe('unavailable');
    expect(classifyDatabaseFailure(withCode(code, message))).toBe('unavailable');
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND'])(
    'a socket error %s is unavailable, also inside an AggregateError or a cause',
    (code) => {
      expect(classifyDatabaseFailure(withCode(code))).toBe('unavailable');
      const aggregate = Object.assign(new AggregateError([withCode(code), withCode(code)]), {
        code,
      });
      expect(classifyDatabaseFailure(aggregate)).toBe('unavailable');
      expect(classifyDatabaseFailure(new Error('wrapped', { cause: withCode(code) }))).toBe(
        'unavailable',
      );
    },
  );

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'Client has encountered a connection error and is not queryable',
  ])('node-postgres "%s" is unavailable', (message) => {
    expect(classifyDatabaseFailure(new Error(message))).toBe('unavailable');
  });

  it('a transaction whose connection was released under it (TypeORM) is unavailable', () => {
    for (const name of [
      'QueryRunnerAlreadyReleasedError',
      'QueryRunnerProviderAlreadyReleasedError',
    ]) {
      expect(classifyDatabaseFailure(Object.assign(new Error('released'), { name }))).toBe(
        'unavailable',
      );
    }
  });

  it('a statement timeout or a pool wait that timed out is busy', () => {
    expect(
      classifyDatabaseFailure(
        queryFailed(withCode('57014', 'canceling statement due to statement timeout')),
      ),
    ).toBe('busy');
    expect(classifyDatabaseFailure(new Error('timeout exceeded when trying to connect'))).toBe(
      'busy',
    );
  });

  it.each([
    ['23505', 'duplicate key'],
    ['22P02', 'invalid input syntax'],
    ['40P01', 'deadlock detected'],
    ['XX000', 'internal error'],
  ])('a query error (%s) is not the database state', (code, message) => {
    expect(classifyDatabaseFailure(queryFailed(withCode(code, message)))).toBeNull();
  });

  it('ignores non-errors and plain errors', () => {
    expect(classifyDatabaseFailure(undefined)).toBeNull();
    expect(classifyDatabaseFailure('ECONNREFUSED')).toBeNull();
    expect(classifyDatabaseFailure(new Error('boom'))).toBeNull();
  });
});
