import { Carrier, CarrierCandidate } from './carrier';
import { findCarrier } from './carrier-catalogue';
import { detectCarriers } from './carrier-detector';

export type CarrierResolution = { carrier: Carrier } | { suggestions: Carrier[] };

/**
 * Decides `originCarrier` for a new shipment.
 *
 * A clear winner is the single top-ranked candidate whose score is strictly above every
 * other candidate's (a lone candidate is a clear winner). Then `{ carrier }`. Otherwise
 * (no candidate, or a tie at the top) `{ suggestions }`: the carriers of all candidates in
 * rank order, possibly empty, for the client to choose from.
 */
export function resolveCarrier(trackingNumber: string): CarrierResolution {
  return resolveFromCandidates(detectCarriers(trackingNumber));
}

/** The same rule applied to an already ranked candidate list. */
export function resolveFromCandidates(candidates: readonly CarrierCandidate[]): CarrierResolution {
  const carriers = candidates
    .map((c) => findCarrier(c.carrierCode))
    .filter((c): c is Carrier => c !== undefined);
  if (
    candidates.length === 1 ||
    (candidates.length > 1 && candidates[0].score > candidates[1].score)
  ) {
    const winner = findCarrier(candidates[0].carrierCode);
    if (winner) return { carrier: winner };
  }
  return { suggestions: carriers };
}
