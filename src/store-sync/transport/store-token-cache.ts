/** An access token a store issued for client credentials, and when it stops working. */
export interface IssuedToken {
  readonly accessToken: string;
  /** Epoch ms. */
  readonly expiresAt: number;
}

/**
 * Tokens exchanged for client credentials (Shopify), kept per store and client id so that
 * sessions share them; renewed `renewBeforeMs` before they expire, and dropped when the store
 * refuses one. In process: a token is cheap to get again, and secrets never reach the database.
 */
export class StoreTokenCache {
  private readonly tokens = new Map<string, IssuedToken>();
  private readonly pending = new Map<string, Promise<IssuedToken>>();

  constructor(private readonly renewBeforeMs: number) {}

  async get(key: string, now: number, issue: () => Promise<IssuedToken>): Promise<string> {
    const known = this.tokens.get(key);
    if (known && known.expiresAt - this.renewBeforeMs > now) return known.accessToken;
    let request = this.pending.get(key);
    if (!request) {
      request = issue().finally(() => this.pending.delete(key));
      this.pending.set(key, request);
    }
    const token = await request;
    this.tokens.set(key, token);
    return token.accessToken;
  }

  invalidate(key: string): void {
    this.tokens.delete(key);
  }
}
