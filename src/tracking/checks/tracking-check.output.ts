import { Documented } from '../../hydra/validation/documented';

/** Shipments queued for a re-track in the background. */
export class TrackingCheckQueued {
  @Documented({ type: 'boolean', required: true }) queued!: boolean;
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: 'The durable job’s id.',
  })
  job!: string | null;
  @Documented({ type: 'array', items: 'string', required: true, description: 'Shipment IRIs.' })
  shipments!: string[];
}
