import { createHash } from 'node:crypto';
import { codedTag, ifMatchHolds, noneMatchHits, representationTag } from './entity-tag';

describe('entity tags', () => {
  const tag = representationTag('{"a":1}');

  it('is strong and changes with the bytes', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(representationTag('{"a":2}')).not.toBe(tag);
    expect(representationTag('{"a":1}')).toBe(tag);
  });

  it('is the base64url SHA-1 of the UTF-8 bytes, string or buffer alike', () => {
    const text = '{"name":"Zoë"}';
    const digest = createHash('sha1').update(text).digest('base64url');
    expect(representationTag(text)).toBe(`"${digest}"`);
    expect(representationTag(Buffer.from(text))).toBe(`"${digest}"`);
  });

  it('If-None-Match: weak comparison, lists, *, and coded tags are the same entity', () => {
    expect(noneMatchHits(tag, tag)).toBe(true);
    expect(noneMatchHits(`W/${tag}`, tag)).toBe(true);
    expect(noneMatchHits(`"x", ${codedTag(tag, 'gzip')}`, tag)).toBe(true);
    expect(noneMatchHits('*', tag)).toBe(true);
    expect(noneMatchHits('"other"', tag)).toBe(false);
    expect(noneMatchHits('garbage', tag)).toBe(false);
  });

  it('If-Match: strong comparison against any current representation', () => {
    expect(ifMatchHolds(tag, ['"x"', tag])).toBe(true);
    expect(ifMatchHolds(codedTag(tag, 'br'), [tag])).toBe(true);
    expect(ifMatchHolds(`W/${tag}`, [tag])).toBe(false);
    expect(ifMatchHolds('"stale"', [tag])).toBe(false);
    expect(ifMatchHolds('*', [])).toBe(true);
    expect(ifMatchHolds('', [tag])).toBe(false);
  });

  it('appends the coding inside a strong tag only', () => {
    expect(codedTag('"abc"', 'gzip')).toBe('"abc-gzip"');
    expect(codedTag('W/"abc"', 'gzip')).toBe('W/"abc"');
  });
});
