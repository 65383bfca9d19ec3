import { hashPassword, needsRehash, verifyPassword } from './password-hasher';

describe('password hasher', () => {
  it('stores a self-describing scrypt hash with a per-hash salt', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$N=32768,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(needsRehash(a)).toBe(false);
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse');
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horsE', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('verifies hashes made with other parameters and flags them for rehash', async () => {
    const weak = await hashPassword('pw', { N: 1024, r: 8, p: 1 });
    expect(weak).toContain('$N=1024,r=8,p=1$');
    await expect(verifyPassword('pw', weak)).resolves.toBe(true);
    expect(needsRehash(weak)).toBe(true);
  });

  it('rejects missing and malformed hashes', async () => {
    await expect(verifyPassword('pw', null)).resolves.toBe(false);
    await expect(verifyPassword('pw', 'plain')).resolves.toBe(false);
    await expect(verifyPassword('pw', 'scrypt$N=3,r=8,p=1$aa$bb')).resolves.toBe(false);
  });
});
