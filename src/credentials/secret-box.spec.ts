import { randomBytes } from 'node:crypto';
import { SecretBox, maskSecret } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, with a fresh IV each time', () => {
    const a = box.seal('{"signingSecret":"s3cr3t"}');
    const b = box.seal('{"signingSecret":"s3cr3t"}');
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cr3t');
    expect(box.open(a)).toBe('{"signingSecret":"s3cr3t"}');
  });

  it('refuses tampered or foreign ciphertexts', () => {
    const sealed = box.seal('hello');
    const parts = sealed.split(':');
    const data = Buffer.from(parts[3], 'base64url');
    data[0] ^= 1;
    parts[3] = data.toString('base64url');
    expect(() => box.open(parts.join(':'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('garbage')).toThrow('unreadable');
  });

  it('reads hex, base64 and passphrase settings as 32-byte keys', () => {
    const key = randomBytes(32);
    const sealed = new SecretBox(key).seal('x');
    expect(SecretBox.fromSetting(key.toString('hex')).open(sealed)).toBe('x');
    expect(SecretBox.fromSetting(key.toString('base64')).open(sealed)).toBe('x');
    expect(SecretBox.fromSetting(key.toString('base64url')).open(sealed)).toBe('x');
    const pass = SecretBox.fromSetting('correct horse battery staple');
    expect(pass.open(pass.seal('y'))).toBe('y');
  });
});

describe('maskSecret', () => {
  it('shows at most the last four characters of long secrets', () => {
    expect(maskSecret('whsec_0123456789abcdef')).toBe('********cdef');
    expect(maskSecret('short')).toBe('********');
    expect(maskSecret('')).toBe('********');
  });
});
