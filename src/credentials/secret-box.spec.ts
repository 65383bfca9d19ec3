import { createCipheriv, randomBytes } from 'node:crypto';
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

  it('derives one key per purpose from the current key, never the key itself', () => {
    const key = randomBytes(32);
    const a = new SecretBox(key, [randomBytes(32)]);
    const b = new SecretBox(key);
    expect(a.derive('image-proxy')).toEqual(b.derive('image-proxy'));
    expect(a.derive('image-proxy')).toHaveLength(32);
    expect(a.derive('image-proxy')).not.toEqual(a.derive('other'));
    expect(a.derive('image-proxy')).not.toEqual(key);
    expect(new SecretBox(randomBytes(32)).derive('image-proxy')).not.toEqual(
      a.derive('image-proxy'),
    );
  });

  it('refuses tampered or foreign ciphertexts', () => {
    const sealed = box.seal('hello');
    const parts = sealed.split(':');
    const data = Buffer.from(parts[4], 'base64url');
    data[0] ^= 1;
    parts[4] = data.toString('base64url');
    expect(() => box.open(parts.join(':'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(/unknown key/);
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

describe('SecretBox key rotation', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  /** A value in the first stored format (no key id), as sealed before rotation existed. */
  function sealV1(key: Buffer, plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join(':');
  }

  it('seals with the current key and names it, without revealing it', () => {
    const box = new SecretBox(newKey, [oldKey]);
    const sealed = box.seal('x');
    expect(sealed.split(':')).toHaveLength(5);
    expect(sealed.startsWith(`v2:${box.keyId}:`)).toBe(true);
    expect(box.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(newKey.toString('hex')).not.toContain(box.keyId);
    expect(new SecretBox(newKey).keyId).toBe(box.keyId);
    expect(new SecretBox(oldKey).keyId).not.toBe(box.keyId);
  });

  it('opens values sealed with a previous key, and says they are not current', () => {
    const before = new SecretBox(oldKey).seal('old secret');
    const box = new SecretBox(newKey, [oldKey]);
    expect(box.open(before)).toBe('old secret');
    expect(box.isCurrent(before)).toBe(false);
    expect(box.isCurrent(box.seal('new'))).toBe(true);
    expect(() => new SecretBox(newKey).open(before)).toThrow(/unknown key/);
  });

  it('reads the first format with the current or a previous key', () => {
    expect(new SecretBox(oldKey).open(sealV1(oldKey, 'legacy'))).toBe('legacy');
    const box = new SecretBox(newKey, [oldKey]);
    expect(box.open(sealV1(oldKey, 'legacy'))).toBe('legacy');
    expect(box.isCurrent(sealV1(newKey, 'legacy'))).toBe(false);
    expect(() => new SecretBox(randomBytes(32)).open(sealV1(oldKey, 'legacy'))).toThrow(
      /unknown key/,
    );
  });

  it('takes previous keys in the setting formats too', () => {
    const before = SecretBox.fromSetting('old passphrase').seal('p');
    expect(SecretBox.fromSetting(newKey.toString('hex'), ['old passphrase']).open(before)).toBe(
      'p',
    );
  });
});

describe('maskSecret', () => {
  it('shows at most the last four characters of long secrets', () => {
    expect(maskSecret('whsec_0123456789abcdef')).toBe('********cdef');
    expect(maskSecret('short')).toBe('********');
    expect(maskSecret('')).toBe('********');
  });
});
