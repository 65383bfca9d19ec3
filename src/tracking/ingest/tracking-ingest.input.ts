import { Typed } from '../../hydra/validation/input-types';

/**
 * `POST /tracking/ingest`: the shipment as `shipment` (IRI or id), or `trackingNumber` +
 * `workspace` (IRI or id); and its `checkpoints` (read by `parsePushedCheckpoints`: `id`,
 * `checkpointDate` or `date`, `status`, `info`, `location`, `countryIso2`, `carrier`, `rel`).
 */
export class TrackingIngestInput {
  @Typed('string') shipment?: string | null;
  @Typed('string') trackingNumber?: string | null;
  @Typed('string') workspace?: string | null;
  /** Up to 500 checkpoints; a checkpoint id pushed again updates that checkpoint. */
  @Typed('array') checkpoints?: unknown[] | null;
}
