import { redactSecrets } from './log-redaction';

describe('redactSecrets', () => {
  it.each([
    [
      '/oauth/v2/token?client_id=a&client_secret=s3cret',
      '/oauth/v2/token?client_id=a&client_secret=[REDACTED]',
    ],
    ['/x?CODE=abc&state=1', '/x?CODE=[REDACTED]&state=1'],
    ['/x?user[password]=p', '/x?user[password]=[REDACTED]'],
    ['/x?access%5Ftoken=t', '/x?access%5Ftoken=[REDACTED]'],
    ['/t/abcdef?x=1', '/t/[REDACTED]?x=1'],
    [
      'GET https://api.test/media/files/ab/cd.png done',
      'GET https://api.test/media/files/[REDACTED] done',
    ],
    ['/public/tracking_page_links/h4sh/reviews', '/public/tracking_page_links/[REDACTED]/reviews'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('keeps other parameters and paths', () => {
    expect(redactSecrets('/shipments?page=2&order[createdAt]=desc')).toBe(
      '/shipments?page=2&order[createdAt]=desc',
    );
    expect(redactSecrets('/statuses/t/x')).toBe('/statuses/t/[REDACTED]');
  });

  it('returns on long hostile text', () => {
    expect(redactSecrets('?a'.repeat(100_000)).length).toBe(200_000);
    expect(redactSecrets('&=' + '='.repeat(100_000)).length).toBeGreaterThan(0);
  });
});
