import type { CheckpointRel, EngineCheckpoint, TrackingFacts } from '../engine';
import type { TrackingStatusCode } from '../statuses';

/**
 * One tracking event as a provider reports it. Field names follow the reference
 * TrackingCheckpoint resource (checkpointDate, info, location, rel) plus what the engine needs.
 */
export interface ProviderCheckpoint extends EngineCheckpoint {
  /** Stable across repeated tracking of the same number, so storing checkpoints is an upsert. */
  readonly externalId: string;
  readonly checkpointDate: Date;
  readonly status: TrackingStatusCode;
  /** Checkpoint message provided by the carrier. */
  readonly info: string;
  /** Location as the carrier words it, e.g. "BOSTON MA DISTRIBUTION CENTER". */
  readonly location: string | null;
  readonly countryIso2: string | null;
  /** Code of the carrier that reported this checkpoint. */
  readonly carrierCode: string;
  /** Carrier affiliation: the origin or the destination carrier. */
  readonly rel?: CheckpointRel | null;
  /** The provider's own status word(s), kept as reported (remote providers). */
  readonly rawStatus?: string | null;
}

export interface TrackingResult {
  readonly checkpoints: readonly ProviderCheckpoint[];
  readonly facts: TrackingFacts;
}

export interface TrackingContext {
  readonly now: Date;
  /** Creation instant of the shipment; providers that simulate journeys anchor them on it. */
  readonly createdAt?: Date;
}

/**
 * The port every source of tracking information implements. A real carrier is one adapter file:
 * a class implementing this interface, registered in the TrackingProviderRegistry.
 * A provider reports every checkpoint it knows each time (the caller upserts by externalId) and
 * throws TrackingProviderError when it cannot answer.
 */
export interface TrackingProvider {
  readonly name: string;
  supports(carrierCode: string, trackingNumber: string): boolean;
  track(trackingNumber: string, carrierCode: string, ctx: TrackingContext): Promise<TrackingResult>;
}
