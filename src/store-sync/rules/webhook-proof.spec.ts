import {
  bodyDigest,
  hmacSha256Base64,
  hmacSha256Base64Matches,
  sharedSecretMatches,
} from './webhook-proof';

describe('hmacSha256Base64Matches', () => {
  const body = Buffer.from('{"id":820982911946154500,"email":"jon@example.com"}');
  const secret = 'hush';

  it('accepts the signature of the exact bytes', () => {
    expect(hmacSha256Base64Matches(secret, body, hmacSha256Base64(secret, body))).toBe(true);
    // A known vector: base64(HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog")).
    expect(
      hmacSha256Base64Matches(
        'key',
        Buffer.from('The quick brown fox jumps over the lazy dog'),
        '97yD9DBThCSxMpjmqm+xQ+9NWaFJRhdZl0edvC0aPNg=',
      ),
    ).toBe(true);
  });

  it('refuses another body, another secret, a truncated or missing signature', () => {
    const signature = hmacSha256Base64(secret, body);
    expect(hmacSha256Base64Matches(secret, Buffer.from(`${body} `), signature)).toBe(false);
    expect(hmacSha256Base64Matches('other', body, signature)).toBe(false);
    expect(hmacSha256Base64Matches(secret, body, signature.slice(0, 20))).toBe(false);
    expect(hmacSha256Base64Matches(secret, body, '')).toBe(false);
    expect(hmacSha256Base64Matches(secret, body, undefined)).toBe(false);
    expect(hmacSha256Base64Matches('', body, hmacSha256Base64('', body))).toBe(false);
    expect(hmacSha256Base64Matches(null, body, signature)).toBe(false);
  });

  it('refuses a hex signature of the right digest (the header is base64)', () => {
    const hex = Buffer.from(hmacSha256Base64(secret, body), 'base64').toString('hex');
    expect(hmacSha256Base64Matches(secret, body, hex)).toBe(false);
  });
});

describe('sharedSecretMatches', () => {
  it('matches only the same secret, whatever the lengths', () => {
    expect(sharedSecretMatches('s3cret-value', 's3cret-value')).toBe(true);
    expect(sharedSecretMatches('s3cret-value', 's3cret-valu')).toBe(false);
    expect(sharedSecretMatches('s3cret-value', 's3cret-value-and-more')).toBe(false);
    expect(sharedSecretMatches('s3cret-value', undefined)).toBe(false);
    expect(sharedSecretMatches(null, '')).toBe(false);
  });
});

describe('bodyDigest', () => {
  it('is stable and differs between bodies', () => {
    expect(bodyDigest(Buffer.from('a'))).toBe(bodyDigest(Buffer.from('a')));
    expect(bodyDigest(Buffer.from('a'))).not.toBe(bodyDigest(Buffer.from('b')));
  });
});
