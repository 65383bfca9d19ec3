import type { TrackingStatusCode } from '../tracking/statuses';
import { stageOfStatus } from './model/stages';

/** What predictions read of a shipment's tracking, its checkpoints aside. */
export interface TrackingEvidence {
  status: string | null;
  originCountry: string | null;
  destinationCountry: string | null;
  /** The carrier's own expected delivery date (ISO), as it reports it. */
  carrierDate: string | null;
}

/**
 * Whether what predictions decided for a shipment still holds after a tracking update, so that
 * the update need not recompute it: the shipment was tracked before (the stored decision was
 * made from that tracking), nothing predictions read changed (status, countries, the carrier's
 * date, no checkpoint new or corrected), and a window is stored where the stage calls for one.
 * The window then stays as announced: it moves with evidence only, as the attention sweeper's
 * time rules assume (README "Wiring"); most refreshes of a parcel bring none.
 */
export function decisionHolds(
  before: TrackingEvidence,
  after: TrackingEvidence,
  checkpointsChanged: number,
  predicted: boolean,
): boolean {
  return (
    before.status !== null &&
    checkpointsChanged === 0 &&
    before.status === after.status &&
    before.originCountry === after.originCountry &&
    before.destinationCountry === after.destinationCountry &&
    sameTime(before.carrierDate, after.carrierDate) &&
    (predicted || stageOfStatus(after.status as TrackingStatusCode) === null)
  );
}

function sameTime(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return Date.parse(a) === Date.parse(b);
}
