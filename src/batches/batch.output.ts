import { Documented } from '../hydra/validation/documented';

/** What `POST /change_status_batch` changed. */
export class ChangeStatusBatchResult {
  @Documented({ type: 'string', required: true, description: 'The records’ kind (`shipments`…).' })
  entity!: string;
  @Documented({ type: 'integer', required: true, description: 'How many records changed status.' })
  count!: number;
  @Documented({
    type: 'array',
    items: 'string',
    required: true,
    description: 'Changed, in the order given.',
  })
  ids!: string[];
  @Documented({
    type: 'array',
    items: 'string',
    required: true,
    description: 'Already had the status.',
  })
  unchangedIds!: string[];
  @Documented({
    type: 'array',
    items: 'string',
    required: true,
    description: 'IRIs of the statuses given (one per workspace).',
  })
  statuses!: string[];
}

/** What `POST /delete_records_batch` deleted. */
export class DeleteRecordsBatchResult {
  @Documented({ type: 'string', required: true, description: 'The records’ kind (`shipments`…).' })
  entity!: string;
  @Documented({ type: 'integer', required: true, description: 'How many records were deleted.' })
  count!: number;
  @Documented({
    type: 'array',
    items: 'string',
    required: true,
    description: 'Deleted, in the order given.',
  })
  ids!: string[];
}
