import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { FileStorage, STORAGE_KEY } from './file-storage';
import type { Writable } from 'node:stream';

/**
 * Files on the local disk under `<root>` (DATA_DIR/media), served back by the media file
 * route. Writes go to a temporary name first and are renamed, so readers never see half a
 * file. Suits one node or a shared volume; several nodes without one need a bucket adapter.
 */
export class LocalFileStorage extends FileStorage {
  constructor(
    private readonly root: string,
    private readonly urlPrefix: string,
  ) {
    super();
  }

  async save(key: string, data: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    await writeFile(tmp, data, { flag: 'wx' });
    await rename(tmp, path);
  }

  async saveStream<T>(key: string, produce: (out: Writable) => Promise<T>): Promise<T> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    const out = createWriteStream(tmp, { flags: 'wx' });
    const closed = new Promise<void>((resolve, reject) => {
      out.once('close', resolve);
      out.once('error', reject);
    });
    try {
      const result = await produce(out);
      if (!out.writableEnded) out.end();
      await closed;
      await rename(tmp, path);
      return result;
    } catch (error) {
      out.destroy();
      // The file may still be opening: only once the stream has closed is it there to remove.
      await closed.catch(() => undefined);
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async open(key: string) {
    if (!STORAGE_KEY.test(key)) return null;
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      return { stream: createReadStream(path), size: info.size };
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  publicPath(key: string): string {
    return `${this.urlPrefix}/${key}`;
  }

  private pathOf(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key ${key}`);
    return join(this.root, key);
  }
}
