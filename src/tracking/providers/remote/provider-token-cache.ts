import type { ProviderTokenCache } from './provider-adapter';

/** A token is renewed once less than this share of its lifetime is left... */
const RENEW_SHARE = 0.1;
/** ...or less than this, whichever comes first. */
const RENEW_MARGIN_MS = 60_000;

interface CachedToken {
  accessToken: string;
  renewAt: number;
}

/**
 * OAuth access tokens per credentials record, in this process: renewed before they expire
 * (10% of their lifetime or a minute ahead), one fetch at a time per record (callers arriving
 * meanwhile share it). A token the provider refused is dropped with `invalidate`.
 */
export class MemoryProviderTokenCache implements ProviderTokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(
    credentialsId: string,
    fetch: () => Promise<{ accessToken: string; expiresInSeconds: number }>,
  ): Promise<string> {
    const cached = this.tokens.get(credentialsId);
    if (cached && cached.renewAt > this.now()) return cached.accessToken;
    const inFlight = this.pending.get(credentialsId);
    if (inFlight) return inFlight;
    const started = this.now();
    const promise = fetch()
      .then(({ accessToken, expiresInSeconds }) => {
        const lifetime = Math.max(0, expiresInSeconds * 1000);
        const margin = Math.max(lifetime * RENEW_SHARE, Math.min(RENEW_MARGIN_MS, lifetime / 2));
        this.tokens.set(credentialsId, { accessToken, renewAt: started + lifetime - margin });
        return accessToken;
      })
      .finally(() => this.pending.delete(credentialsId));
    this.pending.set(credentialsId, promise);
    return promise;
  }

  invalidate(credentialsId: string): void {
    this.tokens.delete(credentialsId);
  }
}
