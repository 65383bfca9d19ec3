/**
 * How long before a push subscription lapses a number still tracked is subscribed again. Every
 * shipment still tracked is polled at least once a day (next-check.ts), so one of its polls
 * falls in this window.
 */
export const RESUBSCRIBE_AHEAD_MS = 2 * 24 * 3_600_000;

export interface PushSubscriptionState {
  /** When the provider last accepted the subscription of the number; null: never. */
  subscribedAt: Date | null;
  /** When it last refused it; null: never. */
  refusedAt: Date | null;
}

/**
 * Whether to subscribe a number now: never subscribed, or its subscription lapses within
 * RESUBSCRIBE_AHEAD_MS; but not within a subscription's lifetime of a refusal (the provider
 * would refuse again; it is asked again once a subscription would have lapsed).
 */
export function pushSubscriptionDue(
  state: PushSubscriptionState | null,
  now: Date,
  lifetimeMs: number,
): boolean {
  const t = now.getTime();
  if (state?.refusedAt && t - state.refusedAt.getTime() < lifetimeMs) return false;
  if (!state?.subscribedAt) return true;
  return (
    t - state.subscribedAt.getTime() >= lifetimeMs - Math.min(RESUBSCRIBE_AHEAD_MS, lifetimeMs)
  );
}
