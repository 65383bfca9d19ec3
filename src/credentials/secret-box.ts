import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts credential secrets at rest with AES-256-GCM (random 96-bit IV, authenticated, so a
 * tampered value fails to open). The stored form is `v1:<iv>:<tag>:<ciphertext>` in base64url;
 * the version leaves room for key rotation.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the credentials encryption key must be 32 bytes');
    this.key = key;
  }

  /**
   * The key CREDENTIALS_ENCRYPTION_KEY names: 64 hex digits or base64 of 32 bytes. Any other
   * text is stretched with SHA-256 (a passphrase), so every non-empty value gives a key.
   */
  static fromSetting(value: string): SecretBox {
    const trimmed = value.trim();
    if (/^[0-9a-f]{64}$/i.test(trimmed)) return new SecretBox(Buffer.from(trimmed, 'hex'));
    const b64 = /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : null;
    if (b64?.length === 32) return new SecretBox(b64);
    return new SecretBox(createHash('sha256').update(trimmed, 'utf8').digest());
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined) {
      throw new Error('unreadable sealed secret');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

/** What clients see of a secret: never more than its last four characters, and only of long ones. */
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `********${secret.slice(-4)}` : '********';
}
