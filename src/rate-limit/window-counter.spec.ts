import { RateLimitHeaders, rateLimitHeaders, WindowCounter } from './window-counter';

describe('WindowCounter', () => {
  const MINUTE = 60_000;
  const t0 = 10 * MINUTE; // a window start

  it('admits up to the limit within a window, then refuses without counting', () => {
    const counter = new WindowCounter(MINUTE);
    for (let i = 1; i <= 3; i++) expect(counter.hit('k', 3, t0 + i).used).toBe(i);
    const refused = counter.hit('k', 3, t0 + 10);
    expect(refused).toEqual({ allowed: false, used: 3, limit: 3, resetAt: t0 + MINUTE });
    // The next window starts from zero.
    expect(counter.hit('k', 3, t0 + MINUTE).used).toBe(1);
  });

  it('judges against the shared total read back plus what it counted since', () => {
    const counter = new WindowCounter(MINUTE);
    counter.hit('k', 10, t0);
    counter.hit('k', 10, t0);
    const drained = counter.drain();
    expect(drained).toEqual([{ key: 'k', windowStart: t0, hits: 2 }]);
    // Counted while the flush is under way: still counted locally.
    expect(counter.hit('k', 10, t0 + 1).used).toBe(3);
    // The database answers 8: the other nodes made 6.
    counter.settled(drained[0], 8);
    expect(counter.hit('k', 10, t0 + 2).used).toBe(10);
    expect(counter.hit('k', 10, t0 + 3).allowed).toBe(false);
    expect(counter.drain()).toEqual([{ key: 'k', windowStart: t0, hits: 2 }]);
  });

  it('keeps counts of a failed flush for the next one', () => {
    const counter = new WindowCounter(MINUTE);
    counter.hit('k', 10, t0);
    const [count] = counter.drain();
    counter.failed(count);
    expect(counter.drain()).toEqual([{ key: 'k', windowStart: t0, hits: 1 }]);
  });

  it('ignores a settled count of a window that has ended, and forgets idle past windows', () => {
    const counter = new WindowCounter(MINUTE);
    counter.hit('k', 10, t0);
    const [count] = counter.drain();
    counter.hit('k', 10, t0 + MINUTE);
    counter.settled(count, 9);
    expect(counter.hit('k', 10, t0 + MINUTE + 1).used).toBe(2);
    counter.hit('old', 10, t0);
    counter.drain().forEach((c) => counter.settled(c, c.hits));
    counter.forgetIdle(t0 + MINUTE);
    expect(counter.hit('old', 10, t0 + MINUTE).used).toBe(1);
  });
});

describe('rateLimitHeaders', () => {
  it('names every budget in the policy and the tightest one in the others', () => {
    const now = 1_000_000;
    const headers = rateLimitHeaders(
      [
        { policy: 'caller', hit: { allowed: true, used: 10, limit: 100, resetAt: now + 30_000 } },
        { policy: 'team', hit: { allowed: true, used: 995, limit: 1000, resetAt: now + 30_000 } },
      ],
      60,
      now,
    );
    expect(headers).toEqual({
      'RateLimit-Policy': '"caller";q=100;w=60, "team";q=1000;w=60',
      RateLimit: '"team";r=5;t=30',
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '5',
      'X-RateLimit-Reset': String(Math.ceil((now + 30_000) / 1000)),
    });
    expect(rateLimitHeaders([], 60, now)).toEqual({});
  });
});

describe('RateLimitHeaders', () => {
  it('sets the same headers answer after answer, across windows and limits', () => {
    const headers = new RateLimitHeaders(60);
    const set = (budgets: Parameters<RateLimitHeaders['write']>[1], now: number) => {
      const out: Record<string, string> = {};
      headers.write({ setHeader: (name, value) => (out[name] = value) }, budgets, now);
      return out;
    };
    const t0 = 600_000;
    const caller = (used: number, limit: number, resetAt: number) => ({
      policy: 'caller',
      hit: { allowed: true, used, limit, resetAt },
    });
    expect(set([caller(1, 100, t0 + 60_000)], t0)).toEqual(
      rateLimitHeaders([caller(1, 100, t0 + 60_000)], 60, t0),
    );
    // The next window: its own reset; a new limit: its own policy text.
    expect(set([caller(1, 50, t0 + 120_000)], t0 + 60_000)).toEqual({
      'RateLimit-Policy': '"caller";q=50;w=60',
      RateLimit: '"caller";r=49;t=60',
      'X-RateLimit-Limit': '50',
      'X-RateLimit-Remaining': '49',
      'X-RateLimit-Reset': String((t0 + 120_000) / 1000),
    });
    expect(
      set([{ policy: 'address', hit: { allowed: false, used: 9, limit: 9, resetAt: t0 } }], t0),
    ).toEqual({
      'RateLimit-Policy': '"address";q=9;w=60',
      RateLimit: '"address";r=0;t=0',
      'X-RateLimit-Limit': '9',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(t0 / 1000),
    });
  });
});
