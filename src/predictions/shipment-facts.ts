import { isTrackingStatusCode } from '../tracking/statuses';
import type { ShipmentPredictionRow } from '../shipments/shipment-prediction-store';
import type { TimelineCheckpoint } from '../tracking/checkpoints/checkpoint-timeline-store';
import type { ShipmentFacts } from './contribution';
import { ATTENTION_CODES, type AttentionCode } from './model/attention';
import type { DeliveryWindow } from './model/predict';
import type { Checkpoint } from './model/stages';

/** A shipment's facts from its row and its stored checkpoints (statuses we do not know are left out). */
export function factsOf(
  row: ShipmentPredictionRow,
  checkpoints: readonly TimelineCheckpoint[],
): ShipmentFacts {
  return {
    createdAt: new Date(row.created_at),
    status: isTrackingStatusCode(row.tracking_status) ? row.tracking_status : null,
    checkpoints: checkpoints.flatMap((c): Checkpoint[] =>
      isTrackingStatusCode(c.status) ? [{ at: new Date(c.at), status: c.status }] : [],
    ),
    carrier: row.origin_carrier,
    originCountry: row.origin_country_iso2,
    destinationCountry: row.destination_country_iso2,
    postcode: row.postcode,
    carrierDate: validDate(row.carrier_date),
  };
}

/** A stored window (jsonb of ISO strings); null when absent or unreadable. */
export function windowOfJson(
  json: { earliest?: unknown; likely?: unknown; latest?: unknown } | null,
): DeliveryWindow | null {
  if (!json) return null;
  const earliest = validDate(json.earliest);
  const likely = validDate(json.likely);
  const latest = validDate(json.latest);
  return earliest && likely && latest ? { earliest, likely, latest } : null;
}

/** The stored attention codes we know, in their order of urgency. */
export function attentionCodesOf(codes: readonly string[] | null): AttentionCode[] {
  return ATTENTION_CODES.filter((c) => codes?.includes(c));
}

function validDate(value: unknown): Date | null {
  if (typeof value !== 'string' && !(value instanceof Date)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
