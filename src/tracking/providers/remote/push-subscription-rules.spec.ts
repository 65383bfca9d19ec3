import { pushSubscriptionDue, RESUBSCRIBE_AHEAD_MS } from './push-subscription-rules';

const DAY = 24 * 3_600_000;
const NOW = new Date('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const LIFETIME = 14 * DAY;

describe('pushSubscriptionDue', () => {
  it('subscribes a number never subscribed', () => {
    expect(pushSubscriptionDue(null, NOW, LIFETIME)).toBe(true);
    expect(pushSubscriptionDue({ subscribedAt: null, refusedAt: null }, NOW, LIFETIME)).toBe(true);
  });

  it('subscribes again two days before the subscription lapses, not earlier', () => {
    expect(RESUBSCRIBE_AHEAD_MS).toBe(2 * DAY);
    const due = (age: number) =>
      pushSubscriptionDue({ subscribedAt: ago(age), refusedAt: null }, NOW, LIFETIME);
    expect(due(0)).toBe(false);
    expect(due(12 * DAY - 1)).toBe(false);
    expect(due(12 * DAY)).toBe(true);
    expect(due(20 * DAY)).toBe(true);
  });

  it('does not ask again within a lifetime of a refusal, then does', () => {
    const due = (age: number, subscribedAt: Date | null = null) =>
      pushSubscriptionDue({ subscribedAt, refusedAt: ago(age) }, NOW, LIFETIME);
    expect(due(DAY)).toBe(false);
    expect(due(DAY, ago(13 * DAY))).toBe(false);
    expect(due(14 * DAY - 1)).toBe(false);
    expect(due(14 * DAY)).toBe(true);
  });

  it('works for lifetimes shorter than the margin', () => {
    const lifetime = DAY;
    expect(pushSubscriptionDue({ subscribedAt: ago(1), refusedAt: null }, NOW, lifetime)).toBe(
      true,
    );
  });
});
