import type { Readable, Writable } from 'node:stream';

/**
 * Where uploaded files live. The API stores and serves files only through this port, so a
 * bucket (S3, GCS) can replace the local disk without touching resources.
 */
export abstract class FileStorage {
  /** Stores `data` under `key` (a relative path such as `<uuid>/<name>`), atomically. */
  abstract save(key: string, data: Buffer): Promise<void>;
  /**
   * Stores what `produce` writes to the given stream under `key`, atomically
   * and without holding the file in memory (exports of any size). The stream
   * may be ended by `produce`; the file appears only when it resolves.
   */
  abstract saveStream<T>(key: string, produce: (out: Writable) => Promise<T>): Promise<T>;
  /** The stored bytes as a stream, or null when no such file exists. */
  abstract open(key: string): Promise<{ stream: Readable; size: number } | null>;
  abstract remove(key: string): Promise<void>;
  /** Public URL or absolute path a client fetches the file from. */
  abstract publicPath(key: string): string;
}

/** Keys are `<uuid>/<safe name>`; anything else never reaches the storage. */
export const STORAGE_KEY = /^[0-9a-f-]{36}\/[A-Za-z0-9._-]{1,120}$/;

/** A file name safe in URLs and on any file system: letters, digits, `.`, `_`, `-`. */
export function safeFileName(name: string | undefined | null): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-120);
  return cleaned || 'file';
}
