import { identifierCast, itemIdentifier } from './resource-identifier';

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

  it('rejects empty, over-long or slashed codes', () => {
    expect(itemIdentifier(codeResource, '')).toBeNull();
    expect(itemIdentifier(codeResource, 'x'.repeat(256))).toBeNull();
    expect(itemIdentifier(codeResource, 'a/b')).toBeNull();
  });

  it('casts parameters for uuid identifiers only', () => {
    expect(identifierCast(uuidResource)).toBe('::uuid');
    expect(identifierCast(codeResource)).toBe('');
  });
});
