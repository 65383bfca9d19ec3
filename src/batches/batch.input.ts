import { Transform } from 'class-transformer';
import { Choice, MaxCount, MinCount, NotBlank, Present } from '../hydra/validation/constraints';
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
