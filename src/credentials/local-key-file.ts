import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a deployment without CREDENTIALS_ENCRYPTION_KEY keeps its generated key. */
export const LOCAL_KEY_FILE = 'credentials-key';

/**
 * The credentials key of a zero-setup deployment: generated at random into
 * `<dataDir>/credentials-key` (mode 0600) on first start and read on every later one, as the
 * embedded PostgreSQL keeps its generated password. Several processes starting at once agree:
 * the file appears atomically (a hard link of a complete temporary file), and whoever loses the
 * race reads the winner's key.
 */
export function localCredentialsKey(dataDir: string): string {
  const path = join(dataDir, LOCAL_KEY_FILE);
  const existing = readKey(path);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  const key = readKey(path);
  if (!key) throw new Error(`${path} holds no credentials key`);
  return key;
}

function readKey(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
