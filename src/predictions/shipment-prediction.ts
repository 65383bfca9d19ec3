import {
  contributionOf,
  nextPromises,
  type Contribution,
  type Promises,
  type ShipmentFacts,
} from './contribution';
import {
  attentionOf,
  type Attention,
  type AttentionCode,
  type AttentionSettings,
} from './model/attention';
import { laneKeys } from './model/lanes';
import {
  expectedDeliveryDate,
  predictDelivery,
  windowMoved,
  type DeliveryPrediction,
  type DeliveryWindow,
} from './model/predict';
import { journeyOf } from './model/stages';
import type { StatsLookup } from './model/stats';

/**
 * Everything a status change decides about predictions for one shipment, in one pure call: the
 * entry point of the tracking writer (phase 2). What it was before comes from the shipment's row
 * (window announced last, attention) and its stored contribution.
 */
export interface PredictionBefore {
  /** The stored contribution and its promises (PredictionStore.readBatch); null: none yet. */
  contribution: Contribution | null;
  promises: Promises | null;
  /** The window last announced in `shipment.delivery_prediction_changed` (or first computed). */
  announced: DeliveryWindow | null;
  /** The attention codes stored on the shipment. */
  attention: readonly AttentionCode[];
}

export interface ShipmentPredictionInput {
  facts: ShipmentFacts;
  before: PredictionBefore;
  /** The team's stats at the shipment's keys (PredictionStore.readBatch). */
  stats: StatsLookup;
  settings: AttentionSettings;
  /** The order's promised delivery date, where known. */
  promisedAt?: Date | null;
  now: Date;
}

export interface ShipmentPredictionUpdate {
  /** The shipment's `deliveryPrediction`; null for a final status. */
  prediction: DeliveryPrediction | null;
  /** The shipment's `expectedDeliveryDate`: the carrier's date, else `likely`. */
  expectedDeliveryDate: Date | null;
  attention: Attention;
  /** Codes that apply now and did not before: one `shipment.<code>` event each. */
  attentionStarted: AttentionCode[];
  /** The window moved by a day or more since the one announced: the event's old and new. */
  moved: { before: DeliveryWindow; after: DeliveryWindow } | null;
  /** The window to remember as announced. */
  announced: DeliveryWindow | null;
  contribution: Contribution;
  promises: Promises;
}

export function updateShipmentPrediction(input: ShipmentPredictionInput): ShipmentPredictionUpdate {
  const { facts, before, stats, now } = input;
  const journey = journeyOf(facts);
  const keys = laneKeys(facts);
  const prediction = predictDelivery({ journey, keys, carrierDate: facts.carrierDate, now }, stats);
  const moved = windowMoved(before.announced, prediction);
  const announced =
    prediction === null
      ? null
      : moved || !before.announced
        ? windowOf(prediction)
        : before.announced;
  // Late against the window last announced (what the customer was told), not the fresh one:
  // a fresh window is never in the past, and one that moved less than a day is not announced.
  const attention = attentionOf(
    { status: facts.status, journey, keys, prediction: announced, promisedAt: input.promisedAt },
    stats,
    input.settings,
    now,
  );
  const promises = nextPromises(before.promises, facts, journey, prediction);
  return {
    prediction,
    expectedDeliveryDate: expectedDeliveryDate(prediction, facts.carrierDate),
    attention,
    attentionStarted: attention.codes.filter((c) => !before.attention.includes(c)),
    moved: moved ? { before: before.announced!, after: windowOf(prediction!) } : null,
    announced,
    contribution: contributionOf(facts, {
      promises,
      stats,
      previous: before.contribution,
      derived: { journey, keys },
    }),
    promises,
  };
}

function windowOf(p: DeliveryWindow): DeliveryWindow {
  return { earliest: p.earliest, likely: p.likely, latest: p.latest };
}
