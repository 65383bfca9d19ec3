import type { Request } from 'express';
import { QueryFailedError } from 'typeorm';
import { ApiExceptionFilter } from './api-exception.filter';

const failure = (code: string) =>
  new QueryFailedError('UPDATE x', [], Object.assign(new Error('db'), { code }));

describe('ApiExceptionFilter database errors', () => {
  const filter = new ApiExceptionFilter();
  const req = {} as Request;

  it.each(['40P01', '40001'])('answers %s (concurrent writes) with a retryable 409', (code) => {
    const rendered = filter.render(failure(code), req);
    expect(rendered).toMatchObject({ status: 409, headers: { 'Retry-After': '1' } });
    expect(rendered.description).not.toMatch(/UPDATE|deadlock/i);
  });

  it('keeps unknown database errors a 500 without details', () => {
    expect(filter.render(failure('XX000'), req)).toMatchObject({
      status: 500,
      description: 'Internal Server Error',
    });
  });

  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is in recovery mode'],
    ['08006', 'connection failure'],
  ])('answers a database that is not serving (%s) with 503 and Retry-After', (code, message) => {
    const driver = Object.assign(new Error(message), { code });
    const rendered = filter.render(new QueryFailedError('SELECT 1', [], driver), req);
    expect(rendered).toMatchObject({
      status: 503,
      headers: { 'Retry-After': '2' },
      databaseFailure: 'unavailable',
    });
    expect(rendered.description).not.toMatch(/SELECT|terminating|recovery/);
  });

  it('answers a refused connection (an AggregateError of ECONNREFUSED) with 503', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const aggregate = Object.assign(new AggregateError([refused]), { code: 'ECONNREFUSED' });
    expect(filter.render(aggregate, req)).toMatchObject({
      status: 503,
      databaseFailure: 'unavailable',
    });
  });

  it('answers a pool timeout or a statement timeout with a quick 503', () => {
    const pool = new Error('timeout exceeded when trying to connect');
    expect(filter.render(pool, req)).toMatchObject({
      status: 503,
      headers: { 'Retry-After': '1' },
      databaseFailure: 'busy',
    });
    const statement = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    expect(
      filter.render(new QueryFailedError('SELECT pg_sleep(60)', [], statement), req),
    ).toMatchObject({
      status: 503,
      databaseFailure: 'busy',
    });
  });

  it('reports a database failure to the outage monitor instead of logging it per request', () => {
    const report = jest.fn();
    const monitored = new ApiExceptionFilter(undefined, undefined, { report } as never);
    const logged = jest.spyOn(
      (monitored as unknown as { logger: { error: () => void } }).logger,
      'error',
    );
    const headers: Record<string, string> = {};
    const res = {
      headersSent: false,
      setHeader: (k: string, v: string) => (headers[k] = v),
      status: jest.fn().mockReturnThis(),
      send: jest.fn(),
    };
    const error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    monitored.respond(error, { headers: { accept: 'application/json' } } as Request, res as never);
    expect(res.status).toHaveBeenCalledWith(503);
    expect(headers['Retry-After']).toBe('2');
    expect(headers['Content-Type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.send.mock.calls[0][0])).toMatchObject({
      status: 503,
      title: 'An error occurred',
    });
    expect(report).toHaveBeenCalledWith(error);
    expect(logged).not.toHaveBeenCalled();
  });
});
