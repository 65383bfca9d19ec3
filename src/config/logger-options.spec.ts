import { IncomingMessage, ServerResponse } from 'http';
import { Socket } from 'net';
import { requestId } from './logger-options';

function exchange(headers: Record<string, string> = {}) {
  const req = new IncomingMessage(new Socket());
  req.headers = headers;
  return { req, res: new ServerResponse(req) };
}

describe('requestId', () => {
  it('honours a sane incoming x-request-id and echoes it', () => {
    const { req, res } = exchange({ 'x-request-id': 'abc-123:x' });
    expect(requestId(req, res)).toBe('abc-123:x');
    expect(res.getHeader('x-request-id')).toBe('abc-123:x');
  });

  it.each([['has spaces'], ['x'.repeat(200)], ['<script>']])('replaces an unsafe id %j', (id) => {
    const { req, res } = exchange({ 'x-request-id': id });
    expect(requestId(req, res)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the id already assigned to the request', () => {
    const { req, res } = exchange();
    const first = requestId(req, res);
    expect(requestId(req, res)).toBe(first);
  });
});
