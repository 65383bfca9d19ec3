import { lstat, mkdir, mkdtemp, readFile, readlink, symlink, writeFile } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';
import { hydrateSymlinks } from './symlink-hydration';

async function fakePackage(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'pg-pkg-'));
  await mkdir(join(root, 'native', 'lib'), { recursive: true });
  await writeFile(join(root, 'native', 'lib', 'libicuuc.so.60.2'), 'real library');
  await writeFile(
    join(root, 'native', 'pg-symlinks.json'),
    JSON.stringify([
      { source: 'native/lib/libicuuc.so.60.2', target: 'native/lib/libicuuc.so.60' },
      { source: 'native/lib/libicuuc.so.60.2', target: 'native/lib/libicuuc.so' },
    ]),
  );
  return root;
}

describe('hydrateSymlinks', () => {
  it('creates missing links, relative to their directory', async () => {
    const root = await fakePackage();
    expect(await hydrateSymlinks(root)).toEqual([
      'native/lib/libicuuc.so.60',
      'native/lib/libicuuc.so',
    ]);
    expect(await readlink(join(root, 'native/lib/libicuuc.so.60'))).toBe('libicuuc.so.60.2');
    expect(await readFile(join(root, 'native/lib/libicuuc.so'), 'utf8')).toBe('real library');
  });

  it('keeps existing links and is idempotent', async () => {
    const root = await fakePackage();
    await hydrateSymlinks(root);
    expect(await hydrateSymlinks(root)).toEqual([]);
  });

  it('replaces a dangling link', async () => {
    const root = await fakePackage();
    await symlink('nowhere.so', join(root, 'native/lib/libicuuc.so.60'));
    expect(await hydrateSymlinks(root)).toContain('native/lib/libicuuc.so.60');
    expect((await lstat(join(root, 'native/lib/libicuuc.so.60'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(root, 'native/lib/libicuuc.so.60'), 'utf8')).toBe('real library');
  });

  it('does nothing without a pg-symlinks.json', async () => {
    expect(await hydrateSymlinks(await mkdtemp(join(tmpdir(), 'empty-')))).toEqual([]);
  });
});
