import { ThrottlerStorageService } from '@nestjs/throttler';

/**
 * @nestjs/throttler's in-memory storage (RATE_LIMIT_STORE=memory, one process), able to tell
 * whether a key is blocked without counting a hit, as PostgresThrottlerStorage does.
 */
export class MemoryThrottlerStorage extends ThrottlerStorageService {
  /** Seconds until the key's block ends (rounded up), or 0 when it is not blocked. */
  async blockedFor(key: string): Promise<number> {
    const record = this.storage.get(key);
    const left = record?.isBlocked ? record.blockExpiresAt - Date.now() : 0;
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }
}
