import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The interface version in the spec's form `v<major>.<minor>.<patch>-<ISO 8601
 * with numeric offset>`: the package version and the instant this process
 * started serving it.
 */
export function apiVersion(now = new Date()): string {
  let version = '0.0.0';
  try {
    version = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')).version;
  } catch {
    try {
      version = JSON.parse(
        readFileSync(join(__dirname, '../../../../package.json'), 'utf8'),
      ).version;
    } catch {
      /* keep the default */
    }
  }
  return `v${version}-${now.toISOString().replace(/\.\d{3}Z$/, '+00:00')}`;
}

export const API_VERSION = apiVersion();
