import { isAcceptedBodyType, negotiateFormat } from './negotiation';

describe('content negotiation', () => {
  it.each([
    [undefined, 'jsonld'],
    ['*/*', 'jsonld'],
    ['application/json', 'json'],
    ['text/csv', 'csv'],
    ['text/html,application/xhtml+xml,*/*;q=0.8', 'html'],
    ['application/json;q=0.5, text/csv', 'csv'],
    ['application/xml, application/*;q=0.1', 'jsonld'],
    ['application/problem+json', 'json'],
    // Quality first, then the server's order of formats (API Platform), not the header's.
    ['application/json, text/plain, */*', 'jsonld'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
    ['application/json;q=0.9, text/csv', 'csv'],
    ['text/csv, application/json', 'json'],
    ['*/*;q=0.5, text/csv', 'csv'],
    ['application/*, text/csv;q=0.2', 'jsonld'],
    ['*/*, application/ld+json;q=0', 'json'],
  ])('Accept %s -> %s', (accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
  });
  it('answers null (406) for formats we cannot serve', () => {
    expect(negotiateFormat('application/xml')).toBeNull();
    expect(negotiateFormat('text/csv;q=0')).toBeNull();
  });
  it('knows the body types it reads', () => {
    expect(isAcceptedBodyType('application/ld+json; charset=utf-8')).toBe(true);
    expect(isAcceptedBodyType('multipart/form-data; boundary=x')).toBe(true);
    expect(isAcceptedBodyType('text/plain')).toBe(false);
    expect(isAcceptedBodyType(undefined)).toBe(false);
  });
});
