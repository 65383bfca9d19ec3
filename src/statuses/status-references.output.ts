import { Documented } from '../hydra/validation/documented';

/** How many shipments or orders have a status. */
export class StatusReferencesCount {
  @Documented({ type: 'integer', minimum: 0, required: true }) refsCount!: number;
}

/** How many records moved to the other status. */
export class StatusReferencesMigrated {
  @Documented({ type: 'integer', minimum: 0, required: true }) updatedRefsCount!: number;
}
