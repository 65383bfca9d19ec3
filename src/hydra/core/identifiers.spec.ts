import { identifierCast, identifierFromSegment, iriSegment, itemIdentifier } from './identifiers';

describe('itemIdentifier', () => {
  const uuidResource = { idIsUuid: true };
  const codeResource = { idIsUuid: false };

  it('accepts UUIDs only for uuid resources, lower-cased', () => {
    expect(itemIdentifier(uuidResource, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11')).toBe(
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    );
    expect(itemIdentifier(uuidResource, 'ups')).toBeNull();
    expect(itemIdentifier(uuidResource, '')).toBeNull();
  });

  it('accepts any non-empty segment for code resources, unchanged', () => {
    expect(itemIdentifier(codeResource, 'tm-test')).toBe('tm-test');
    expect(itemIdentifier(codeResource, 'China-Post')).toBe('China-Post');
    expect(itemIdentifier(codeResource, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')).toBe(
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    );
  });

  it('rejects empty or over-long codes, and codes no text column can hold', () => {
    expect(itemIdentifier(codeResource, '')).toBeNull();
    expect(itemIdentifier(codeResource, 'x'.repeat(256))).toBeNull();
    expect(itemIdentifier(codeResource, '\u0000')).toBeNull();
    expect(itemIdentifier(codeResource, 'tm\u0000test')).toBeNull();
    expect(identifierFromSegment(codeResource, 'tm%00test')).toBeNull();
  });

  it('carries codes with slashes percent-encoded in IRIs, and reads them back', () => {
    expect(itemIdentifier(codeResource, 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(iriSegment(codeResource, 'America/Argentina/Buenos_Aires')).toBe(
      'America%2FArgentina%2FBuenos_Aires',
    );
    expect(identifierFromSegment(codeResource, 'America%2FArgentina%2FBuenos_Aires')).toBe(
      'America/Argentina/Buenos_Aires',
    );
    expect(identifierFromSegment(codeResource, '%E0%A4%A')).toBeNull();
    expect(iriSegment(uuidResource, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')).toBe(
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    );
    expect(identifierFromSegment(uuidResource, 'ups')).toBeNull();
  });

  it('casts parameters for uuid identifiers only', () => {
    expect(identifierCast(uuidResource)).toBe('::uuid');
    expect(identifierCast(codeResource)).toBe('');
  });
});
