import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { safeFileName } from './file-storage';
import { LocalFileStorage, STALE_TEMPORARY_FILE_MS } from './local-file-storage';

describe('LocalFileStorage', () => {
  let root: string;
  let storage: LocalFileStorage;
  const key = '0b8e7a3c-1f2d-4c5b-9a8e-7d6c5b4a3f21/logo.png';

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'media-'));
    storage = new LocalFileStorage(root, '/media/files');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('saves, opens and removes a file', async () => {
    await storage.save(key, Buffer.from('hello'));
    const opened = await storage.open(key);
    expect(opened?.size).toBe(5);
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
    await storage.remove(key);
    expect(await storage.open(key)).toBeNull();
  });

  it('refuses keys that could escape the root', async () => {
    await expect(storage.save('../x/y', Buffer.from('x'))).rejects.toThrow('Invalid storage key');
    expect(await storage.open('../../etc/passwd')).toBeNull();
  });

  it('builds the public path from the key', () => {
    expect(storage.publicPath(key)).toBe(`/media/files/${key}`);
  });
});

describe('safeFileName', () => {
  it.each([
    ['cats.png', 'cats.png'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\my photo (1).jpg', 'my_photo_1_.jpg'],
    ['.hidden', 'hidden'],
    ['', 'file'],
    [undefined, 'file'],
    ['été.pdf', 'ete.pdf'],
  ])('%j -> %j', (input, expected) => {
    expect(safeFileName(input)).toBe(expected);
  });
});

describe('LocalFileStorage.saveStream', () => {
  const root = mkdtempSync(join(tmpdir(), 'storage-stream-'));
  const storage = new LocalFileStorage(root, '/media/files');
  const key = '6f1d8a44-0b8e-4c1f-9a7c-2f0e7d7b1a11/export.csv';

  it('stores what the producer writes, and only once it resolves', async () => {
    const result = await storage.saveStream(key, async (out) => {
      for (let i = 0; i < 1000; i++) out.write(`row ${i}\n`);
      expect(existsSync(join(root, key))).toBe(false);
      out.end();
      return 1000;
    });
    expect(result).toBe(1000);
    expect(readFileSync(join(root, key), 'utf8').split('\n')).toHaveLength(1001);
  });

  it('removes what a dead writer of the same key left, not a live one or other keys', async () => {
    const dir = '6f1d8a44-0b8e-4c1f-9a7c-2f0e7d7b1a13';
    const temp = (name: string, n: number) =>
      `${name}.6f1d8a44-0b8e-4c1f-9a7c-2f0e7d7b1a${String(n).padStart(2, '0')}.tmp`;
    await storage.save(`${dir}/seed.txt`, Buffer.from('x'));
    const dead = temp('export.csv', 1);
    const live = temp('export.csv', 2);
    const otherKey = temp('other.csv', 3);
    for (const f of [dead, live, otherKey]) writeFileSync(join(root, dir, f), 'partial');
    const old = (Date.now() - STALE_TEMPORARY_FILE_MS - 60_000) / 1000;
    utimesSync(join(root, dir, dead), old, old);
    utimesSync(join(root, dir, otherKey), old, old);
    await storage.saveStream(`${dir}/export.csv`, async (out) => {
      out.end('id\n');
    });
    expect(readdirSync(join(root, dir)).sort()).toEqual(
      ['export.csv', live, otherKey, 'seed.txt'].sort(),
    );
  });

  it('leaves nothing behind when the producer fails', async () => {
    const other = '6f1d8a44-0b8e-4c1f-9a7c-2f0e7d7b1a12/broken.csv';
    await expect(
      storage.saveStream(other, async (out) => {
        out.write('partial');
        throw new Error('cursor lost');
      }),
    ).rejects.toThrow('cursor lost');
    expect(existsSync(join(root, other))).toBe(false);
    expect(readdirSync(join(root, other.split('/')[0]))).toEqual([]);
  });
});
