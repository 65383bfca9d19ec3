import { lstat, readFile, stat, symlink, unlink } from 'fs/promises';
import { dirname, join, relative } from 'path';

interface SymlinkEntry {
  /** Real file, relative to the package root, e.g. native/lib/libicuuc.so.60.2 */
  source: string;
  /** Link to create, relative to the package root, e.g. native/lib/libicuuc.so.60 */
  target: string;
}

/**
 * Recreates the shared-library links listed in `<packageRoot>/native/pg-symlinks.json`.
 * The binaries package creates them in its postinstall script; when install scripts did not run
 * (`npm ci --ignore-scripts`, some CI caches) PostgreSQL fails with a missing libicu. Existing
 * links are kept, broken ones replaced. Returns the links it created.
 */
export async function hydrateSymlinks(packageRoot: string): Promise<string[]> {
  let entries: SymlinkEntry[];
  try {
    entries = JSON.parse(await readFile(join(packageRoot, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return [];
  }
  const created: string[] = [];
  for (const { source, target } of entries) {
    const linkPath = join(packageRoot, target);
    const sourcePath = join(packageRoot, source);
    if (await isUsable(linkPath)) continue;
    await unlink(linkPath).catch(() => undefined); // a broken link, if any
    // Relative, like the original script, so moving node_modules keeps the links valid.
    await symlink(relative(dirname(linkPath), sourcePath), linkPath);
    created.push(target);
  }
  return created;
}

async function isUsable(path: string): Promise<boolean> {
  try {
    await lstat(path);
    await stat(path); // follows the link: fails when it dangles
    return true;
  } catch {
    return false;
  }
}
