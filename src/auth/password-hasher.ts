import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** Cost parameters of new hashes: 2^15 x 8 x 128 B = 32 MiB of memory per hash. */
const DEFAULT = { N: 32768, r: 8, p: 1 };
const KEY_LENGTH = 32;

/**
 * Passwords hashed with scrypt (memory-hard, in Node's crypto), a 16-byte salt per hash,
 * stored self-describing as `scrypt$N=32768,r=8,p=1$<salt>$<hash>` (base64url), so the
 * cost can be raised later without breaking existing hashes.
 */
export async function hashPassword(password: string, cost = DEFAULT): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, KEY_LENGTH);
  return `scrypt$N=${cost.N},r=${cost.r},p=${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  if (!parsed) {
    // Same work as a real check, so timing does not tell whether the account has a password.
    await derive(password, DUMMY_SALT, DEFAULT, KEY_LENGTH);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.cost, parsed.hash.length);
  return timingSafeEqual(key, parsed.hash);
}

/** True when the hash was made with weaker parameters than today's (rehash on next login). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.cost.N < DEFAULT.N || parsed.cost.r < DEFAULT.r;
}

const DUMMY_SALT = randomBytes(16);

function derive(
  password: string,
  salt: Buffer,
  cost: { N: number; r: number; p: number },
  length: number,
): Promise<Buffer> {
  return scrypt(password.normalize('NFC'), salt, length, {
    ...cost,
    maxmem: 256 * cost.N * cost.r + 1024 * 1024,
  });
}

function parse(stored: string) {
  const m = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!m) return null;
  const cost = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (cost.N < 2 || (cost.N & (cost.N - 1)) !== 0 || cost.r < 1 || cost.p < 1) return null;
  return { cost, salt: Buffer.from(m[4], 'base64url'), hash: Buffer.from(m[5], 'base64url') };
}
