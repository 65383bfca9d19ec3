import type { TrackingStatusCode } from '../statuses';

/** Carrier affiliation of a checkpoint, as in the reference TrackingCheckpoint `rel` field. */
export type CheckpointRel = 'origin' | 'destination';

/** What the status engine needs to know about one checkpoint (field names of the reference). */
export interface EngineCheckpoint {
  readonly checkpointDate: Date;
  readonly status: TrackingStatusCode;
  readonly countryIso2?: string | null;
  readonly carrierCode?: string | null;
  readonly rel?: CheckpointRel | null;
}

/** Shipment-level facts a carrier reports besides its checkpoints. Absent or null: unknown. */
export interface TrackingFacts {
  readonly destinationCarrier?: string | null;
  readonly originCountryIso2?: string | null;
  readonly destinationCountryIso2?: string | null;
  readonly expectedDeliveryDate?: Date | null;
}

export interface TrackingLimits {
  /** A shipment with no tracking information this many days after creation becomes expired. */
  readonly expiredAfterDays: number;
  /** A parcel in_transit this many days after shippedAt becomes transit_limit_exceeded. */
  readonly transitLimitDays: number;
}

export const DEFAULT_TRACKING_LIMITS: TrackingLimits = Object.freeze({
  expiredAfterDays: 30,
  transitLimitDays: 60,
});
