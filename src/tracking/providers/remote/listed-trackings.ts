import {
  ProviderNumberNotRegistered,
  type ProviderCallContext,
  type ProviderOutcome,
  type ProviderTrackRequest,
  type ProviderType,
} from './provider-adapter';
import type { TrackingProviderError } from '../tracking-provider-error';

/**
 * For aggregators that create one tracking per number and read them back in batches through a
 * list call (AfterShip, EasyPost): the provider's tracking objects found, by normalised number
 * (several may share a number, one per carrier).
 */
export type ListedTrackings = Map<string, Record<string, unknown>[]>;

export function normaliseTrackingNumber(trackingNumber: string): string {
  return trackingNumber.replace(/\s+/g, '').toUpperCase();
}

export function addListedTracking(
  found: ListedTrackings,
  trackingNumber: string,
  tracking: Record<string, unknown>,
): void {
  const key = normaliseTrackingNumber(trackingNumber);
  found.set(key, [...(found.get(key) ?? []), tracking]);
}

/** The tracking of the requested carrier when there are several, else the latest updated. */
export function pickListedTracking(
  found: ListedTrackings,
  request: ProviderTrackRequest,
  isRequestedCarrier: (tracking: Record<string, unknown>) => boolean,
): Record<string, unknown> | null {
  const candidates = found.get(normaliseTrackingNumber(request.trackingNumber)) ?? [];
  const sameCarrier = candidates.filter(isRequestedCarrier);
  const pool = sameCarrier.length > 0 ? sameCarrier : candidates;
  return (
    [...pool].sort((a, b) =>
      String(b.updated_at ?? '').localeCompare(String(a.updated_at ?? '')),
    )[0] ?? null
  );
}

/** `register`: one creation call per number, in order. */
export async function registerEach(
  ctx: ProviderCallContext,
  requests: readonly ProviderTrackRequest[],
  create: (
    ctx: ProviderCallContext,
    request: ProviderTrackRequest,
  ) => Promise<TrackingProviderError | null>,
): Promise<Map<string, TrackingProviderError | null>> {
  const out = new Map<string, TrackingProviderError | null>();
  for (const request of requests) out.set(request.trackingNumber, await create(ctx, request));
  return out;
}

/** `track`'s outcomes: each number's picked tracking mapped, or "not registered" without one. */
export function listedOutcomes(
  provider: ProviderType,
  requests: readonly ProviderTrackRequest[],
  pick: (request: ProviderTrackRequest) => Record<string, unknown> | null,
  map: (tracking: Record<string, unknown>, request: ProviderTrackRequest) => ProviderOutcome,
): Map<string, ProviderOutcome> {
  const out = new Map<string, ProviderOutcome>();
  for (const request of requests) {
    const tracking = pick(request);
    out.set(
      request.trackingNumber,
      tracking === null
        ? new ProviderNumberNotRegistered(provider, request.trackingNumber)
        : map(tracking, request),
    );
  }
  return out;
}
