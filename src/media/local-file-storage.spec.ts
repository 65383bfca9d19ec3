import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { safeFileName } from './file-storage';
import { LocalFileStorage } from './local-file-storage';

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
