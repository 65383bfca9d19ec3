import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Encrypts credential secrets at rest with AES-256-GCM (random 96-bit IV, authenticated, so a
 * tampered value fails to open). The stored form is `v2:<key id>:<iv>:<tag>:<ciphertext>`
 * (base64url parts); the key id (8 hex digits of a hash of the key, not the key) says which
 * key sealed it, so a box holding the current key and previous ones opens values sealed
 * with any of them while seal() always uses the current one: that is key rotation
 * (`npm run cli -- rotate-credentials-key` re-seals every stored value). Values of the first
 * format, `v1:<iv>:<tag>:<ciphertext>` without a key id, are still read (every key tried).
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  /** Id of the key seal() uses. */
  readonly keyId: string;

  constructor(key: Buffer, previous: readonly Buffer[] = []) {
    for (const k of [key, ...previous]) {
      if (k.length !== 32) throw new Error('the credentials encryption key must be 32 bytes');
    }
    this.keyId = keyId(key);
    this.keys = new Map([[this.keyId, key]]);
    for (const k of previous) if (!this.keys.has(keyId(k))) this.keys.set(keyId(k), k);
  }

  /**
   * The key CREDENTIALS_ENCRYPTION_KEY names: 64 hex digits or base64 of 32 bytes. Any other
   * text is stretched with SHA-256 (a passphrase), so every non-empty value gives a key.
   * `previous` are keys of earlier settings, still accepted by open().
   */
  static fromSetting(value: string, previous: readonly string[] = []): SecretBox {
    return new SecretBox(keyFromSetting(value), previous.map(keyFromSetting));
  }

  seal(plaintext: string): string {
    const key = this.keys.get(this.keyId)!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v2',
      this.keyId,
      ...[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')),
    ].join(':');
  }

  open(sealed: string): string {
    const parts = sealed.split(':');
    if (parts[0] === 'v2' && parts.length === 5) {
      const key = this.keys.get(parts[1]);
      if (!key) throw new Error(`secret sealed with an unknown key (${parts[1]})`);
      return decrypt(key, parts[2], parts[3], parts[4]);
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      for (const key of this.keys.values()) {
        try {
          return decrypt(key, parts[1], parts[2], parts[3]);
        } catch {
          // next key
        }
      }
      throw new Error('secret sealed with an unknown key');
    }
    throw new Error('unreadable sealed secret');
  }

  /**
   * A key for another purpose (signing), derived from the current key with HMAC-SHA256 under
   * `purpose`: knowing it reveals nothing of the sealing key, and each purpose gets its own.
   */
  derive(purpose: string): Buffer {
    return createHmac('sha256', this.keys.get(this.keyId)!)
      .update(`derived-key:${purpose}`)
      .digest();
  }

  /** Whether a sealed value is already under the current key (nothing to rotate). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`v2:${this.keyId}:`);
  }
}

function keyFromSetting(value: string): Buffer {
  const trimmed = value.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const b64 = /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : null;
  if (b64?.length === 32) return b64;
  return createHash('sha256').update(trimmed, 'utf8').digest();
}

/** Names a key without revealing it (a hash of a domain-separated hash). */
function keyId(key: Buffer): string {
  return createHash('sha256').update('credentials-key-id:').update(key).digest('hex').slice(0, 8);
}

function decrypt(key: Buffer, iv: string, tag: string, data: string): string {
  if (!iv || !tag || data === undefined) throw new Error('unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(data, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

/** What clients see of a secret: never more than its last four characters, and only of long ones. */
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `********${secret.slice(-4)}` : '********';
}
