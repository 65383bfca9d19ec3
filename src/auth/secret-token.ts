import { randomBytes } from 'node:crypto';
import { hashToken } from '../access/principal-loader';

/**
 * Random secrets (tokens, codes, client secrets): 256 bits, base64url. They are high-entropy,
 * so a SHA-256 (not a password hash) is what is stored and looked up.
 */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export { hashToken };
