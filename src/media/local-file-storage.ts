import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { FileStorage, STORAGE_KEY } from './file-storage';
import type { Writable } from 'node:stream';

/**
 * A temporary file of a key not written to for this long belongs to a writer that died (a
 * crash in the middle of an export): the next write of the key removes it. Live writers write
 * continuously, and a dead export's job is retried only once pg-boss expires it (15 minutes).
 */
export const STALE_TEMPORARY_FILE_MS = 10 * 60_000;

/** `<name>.<uuid>.tmp`: a write of `<name>` in progress or left by a dead writer. */
const TEMPORARY = /^(.+)\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;

/**
 * Files on the local disk under `<root>` (DATA_DIR/media), served back by the media file
 * route. Writes go to a temporary name first and are renamed, so readers never see half a
 * file; a write removes the stale temporary files an earlier writer of the same key left.
 * Suits one node or a shared volume; several nodes without one need a bucket adapter.
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
    await this.prepare(path);
    const tmp = `${path}.${randomUUID()}.tmp`;
    await writeFile(tmp, data, { flag: 'wx' });
    await rename(tmp, path);
  }

  async saveStream<T>(key: string, produce: (out: Writable) => Promise<T>): Promise<T> {
    const path = this.pathOf(key);
    await this.prepare(path);
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

  /** Makes the key's directory, and removes the key's stale temporary files in it. */
  private async prepare(path: string, now = Date.now()): Promise<void> {
    const dir = dirname(path);
    await mkdir(dir, { recursive: true });
    const name = basename(path);
    for (const entry of await readdir(dir)) {
      if (TEMPORARY.exec(entry)?.[1] !== name) continue;
      const file = join(dir, entry);
      const info = await stat(file).catch(() => null);
      if (info && now - info.mtimeMs > STALE_TEMPORARY_FILE_MS) await rm(file, { force: true });
    }
  }

  private pathOf(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key ${key}`);
    return join(this.root, key);
  }
}
