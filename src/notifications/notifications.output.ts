import { Documented } from '../hydra/validation/documented';

/** How many notifications were marked read. */
export class MarkedAsRead {
  @Documented({ type: 'integer', minimum: 0, required: true }) markedAsRead!: number;
}

/** How many of the user's notifications were marked read. */
export class MarkedAllAsRead {
  @Documented({ type: 'string', format: 'uuid', required: true }) userId!: string;
  @Documented({ type: 'integer', minimum: 0, required: true }) markedAsRead!: number;
}
