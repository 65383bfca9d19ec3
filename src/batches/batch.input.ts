import { Expose, Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';
import {
  Choice,
  MaxCount,
  MaxLength,
  MinCount,
  NotBlank,
  Present,
} from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';
import { DELETE_BATCH_ENTITIES, STATUS_BATCH_ENTITIES } from './batch-entities';
import { MAX_ASYNC_BATCH, MAX_SYNC_BATCH } from './batch-request';
import { WorkspaceScopedInput } from '../workspaces/workspace-scoped.input';

/** `entity` is named like the collection; a leading slash (`/shipments`) is tolerated. */
const collectionName = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().replace(/^\//, '') : value;

const choiceOf = (entities: readonly string[]) =>
  Choice(entities, {
    message: `The value you selected is not a valid choice. Choose one of: ${entities.join(', ')}.`,
  });

/**
 * Records of one kind named like their collection (`entity`), by ids or IRIs (`ids`, 1 to
 * `max`), within an optional workspace: the body every records batch shares.
 */
function RecordsBatch(entities: readonly string[], max: number) {
  class Batch extends WorkspaceScopedInput {
    @Typed('string')
    @NotBlank()
    @choiceOf(entities)
    @Transform(collectionName)
    entity!: string;
    @Typed('string', { each: true })
    @Present()
    @MinCount(1)
    @MaxCount(max)
    ids!: string[];
  }
  return Batch;
}

/** The status a status batch gives: `statusId` (id or IRI) or `status` (also a code). */
function StatusBatch(max: number) {
  class StatusChange extends RecordsBatch(STATUS_BATCH_ENTITIES, max) {
    /** The status: an id or /statuses IRI (the reference's name). */
    @Typed('string') statusId?: string | null;
    /** Or the status as an IRI, an id, or the code of a status of the records' workspace. */
    @Typed('string') status?: string | null;
  }
  return StatusChange;
}

/** `POST /change_status_batch`: records of one kind and the status they get. */
export class ChangeStatusBatchInput extends StatusBatch(MAX_SYNC_BATCH) {}

/** `POST /change_status_batch_async`: the same, up to 10 000 records, in the background. */
export class ChangeStatusBatchAsyncInput extends StatusBatch(MAX_ASYNC_BATCH) {}

/** `POST /delete_records_batch`: records of one kind to delete, all or none. */
export class DeleteRecordsBatchInput extends RecordsBatch(DELETE_BATCH_ENTITIES, MAX_SYNC_BATCH) {}

/**
 * The store plugin's form `{workspaceId, shipmentId, trackingNumber}` read as `{target,
 * shipments: []}` plus the number. class-transformer runs no transform for an attribute the
 * body leaves out, so `shipmentId`'s fills them in the body before they are read (the body's
 * own attributes come first, the exposed `target` and `shipments` after).
 */
const pluginForm = ({ value, obj }: { value: unknown; obj: Record<string, unknown> }) => {
  if (obj.target === undefined) obj.target = value;
  if (obj.shipments === undefined && obj.trackingNumber != null) obj.shipments = [];
  return value;
};

/**
 * `POST /shipments/merge`: the shipment to keep and its duplicates, `{target, shipments}`; or,
 * as the WooCommerce plugin sends it after a duplicate tracking number was refused,
 * `{workspaceId, shipmentId, trackingNumber}`: the shipments of the workspace carrying that
 * number are folded into `shipmentId`, which then takes the number.
 */
export class MergeShipmentsInput {
  /** Id or IRI of the shipment that stays (`shipmentId` in the plugin's form). */
  // Exposed: read after the body's attributes, once `shipmentId` has filled it in.
  @Expose() @Typed('string') @NotBlank() target!: string;
  /** Ids or IRIs of the duplicates folded into it. */
  @Expose()
  @Typed('string', { each: true })
  @Present()
  @ValidateIf((input: MergeShipmentsInput) => input.trackingNumber == null)
  @MinCount(1)
  shipments!: string[];
  /** The plugin's form: the duplicates are the other shipments with this number. */
  @Typed('string') @MaxLength(255) trackingNumber?: string | null;
  /** The plugin's form: the shipment being edited, which stays (becomes `target`). */
  @Transform(pluginForm) @Typed('string') shipmentId?: string | null;
  /** The plugin's form: the workspace of the shipments (id or IRI). */
  @Typed('string') workspaceId?: string | null;
}
