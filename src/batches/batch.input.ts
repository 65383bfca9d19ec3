import { Transform } from 'class-transformer';
import { Choice, MaxCount, MinCount, NotBlank, Present } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';
import { DELETE_BATCH_ENTITIES, STATUS_BATCH_ENTITIES } from './batch-entities';
import { MAX_ASYNC_BATCH, MAX_SYNC_BATCH } from './batch-request';

/** `entity` is named like the collection; a leading slash (`/shipments`) is tolerated. */
const collectionName = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().replace(/^\//, '') : value;

const choiceOf = (entities: readonly string[]) =>
  Choice(entities, {
    message: `The value you selected is not a valid choice. Choose one of: ${entities.join(', ')}.`,
  });

/** The workspace an action is limited to: `workspaceId` (the reference's name) or `workspace`. */
export class WorkspaceScopedInput {
  /** Id or IRI of one of the caller's workspaces. */
  @Typed('string') workspaceId?: string | null;
  /** Same as `workspaceId`. */
  @Typed('string') workspace?: string | null;
}

class StatusChange extends WorkspaceScopedInput {
  /** The status: an id or /statuses IRI (the reference's name). */
  @Typed('string') statusId?: string | null;
  /** Or the status as an IRI, an id, or the code of a status of the records' workspace. */
  @Typed('string') status?: string | null;
}

/** `POST /change_status_batch`: records of one kind and the status they get. */
export class ChangeStatusBatchInput extends StatusChange {
  @Typed('string')
  @NotBlank()
  @choiceOf(STATUS_BATCH_ENTITIES)
  @Transform(collectionName)
  entity!: string;
  @Typed('string', { each: true })
  @Present()
  @MinCount(1)
  @MaxCount(MAX_SYNC_BATCH)
  ids!: string[];
}

/** `POST /change_status_batch_async`: the same, up to 10 000 records, in the background. */
export class ChangeStatusBatchAsyncInput extends StatusChange {
  @Typed('string')
  @NotBlank()
  @choiceOf(STATUS_BATCH_ENTITIES)
  @Transform(collectionName)
  entity!: string;
  @Typed('string', { each: true })
  @Present()
  @MinCount(1)
  @MaxCount(MAX_ASYNC_BATCH)
  ids!: string[];
}

/** `POST /delete_records_batch`: records of one kind to delete, all or none. */
export class DeleteRecordsBatchInput extends WorkspaceScopedInput {
  @Typed('string')
  @NotBlank()
  @choiceOf(DELETE_BATCH_ENTITIES)
  @Transform(collectionName)
  entity!: string;
  @Typed('string', { each: true })
  @Present()
  @MinCount(1)
  @MaxCount(MAX_SYNC_BATCH)
  ids!: string[];
}

/** `POST /shipments/merge`: the shipment to keep and its duplicates. */
export class MergeShipmentsInput {
  /** Id or IRI of the shipment that stays. */
  @Typed('string') @NotBlank() target!: string;
  /** Ids or IRIs of the duplicates folded into it. */
  @Typed('string', { each: true }) @Present() @MinCount(1) shipments!: string[];
}
