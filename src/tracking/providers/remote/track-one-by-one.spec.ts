import type { TrackingResult } from '../tracking-provider';
import { TrackingProviderError } from '../tracking-provider-error';
import type { ProviderCallContext, ProviderTrackRequest } from './provider-adapter';
import { trackOneByOne } from './track-one-by-one';

const ctx = {} as ProviderCallContext;
const requests: ProviderTrackRequest[] = ['A', 'B', 'C'].map((trackingNumber) => ({
  trackingNumber,
  carrierCode: null,
}));
/** One distinct answer object per number, so `toBe` tells them apart. */
const answers = new Map<string, TrackingResult>(
  requests.map((r) => [r.trackingNumber, { checkpoints: [], facts: {} }]),
);
const result = (n: string): TrackingResult => answers.get(n)!;

describe('trackOneByOne', () => {
  it('asks each number once, in order, and keeps each answer', async () => {
    const asked: string[] = [];
    const out = await trackOneByOne(ctx, requests, async (_ctx, req) => {
      asked.push(req.trackingNumber);
      return result(req.trackingNumber);
    });
    expect(asked).toEqual(['A', 'B', 'C']);
    expect([...out.keys()]).toEqual(['A', 'B', 'C']);
    expect(out.get('B')).toBe(result('B'));
  });

  it("makes a permanent failure that number's outcome and goes on", async () => {
    const refused = TrackingProviderError.permanent('refused', { provider: 'ups' });
    const out = await trackOneByOne(ctx, requests, async (_ctx, req) => {
      if (req.trackingNumber === 'B') throw refused;
      return result(req.trackingNumber);
    });
    expect(out.get('A')).toBe(result('A'));
    expect(out.get('B')).toBe(refused);
    expect(out.get('C')).toBe(result('C'));
  });

  it('throws a transient failure of the first number', async () => {
    const limited = TrackingProviderError.transient('429', { provider: 'ups' });
    await expect(
      trackOneByOne(ctx, requests, async () => {
        throw limited;
      }),
    ).rejects.toBe(limited);
  });

  it('stops at a later transient failure, answered numbers keep their answer', async () => {
    const limited = TrackingProviderError.transient('429', { provider: 'ups' });
    const asked: string[] = [];
    const out = await trackOneByOne(ctx, requests, async (_ctx, req) => {
      asked.push(req.trackingNumber);
      if (req.trackingNumber === 'B') throw limited;
      return result(req.trackingNumber);
    });
    expect(asked).toEqual(['A', 'B']);
    expect(out.get('A')).toBe(result('A'));
    expect(out.get('B')).toBe(limited);
    expect(out.get('C')).toBe(limited);
  });

  it('rethrows an error that is not a provider error', async () => {
    const bug = new TypeError('bug');
    await expect(
      trackOneByOne(ctx, requests, async (_ctx, req) => {
        if (req.trackingNumber === 'B') throw bug;
        return result(req.trackingNumber);
      }),
    ).rejects.toBe(bug);
  });
});
