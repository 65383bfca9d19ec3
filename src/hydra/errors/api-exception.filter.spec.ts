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
});
