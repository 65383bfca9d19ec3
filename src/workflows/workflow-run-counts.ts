import { Documented } from '../hydra/validation/documented';

const COUNT = { type: 'integer', required: true } as const;

/** What a store sync run did (src/store-sync); null on webhook delivery runs. */
export class WorkflowRunCounts {
  @Documented({ ...COUNT, description: 'Store orders read (pages and webhooks).' })
  ordersRead!: number;
  @Documented(COUNT) ordersCreated!: number;
  @Documented(COUNT) ordersUpdated!: number;
  @Documented({ ...COUNT, description: 'Orders read again without a change since last time.' })
  ordersUnchanged!: number;
  @Documented({ ...COUNT, description: 'Orders that could not be imported (see errors).' })
  ordersFailed!: number;
  @Documented(COUNT) shipmentsCreated!: number;
  @Documented(COUNT) shipmentsUpdated!: number;
  @Documented({
    ...COUNT,
    description: 'Shipments moved to a tracking number changed in the store.',
  })
  shipmentsMoved!: number;
  @Documented({ ...COUNT, description: 'Shipments whose parcel the store no longer has.' })
  shipmentsRemoved!: number;
  @Documented({
    ...COUNT,
    description: 'Tracking updates the store received since the previous run began.',
  })
  eventsSent!: number;
  @Documented({ ...COUNT, description: 'Store webhook deliveries this run imported.' })
  webhooksReceived!: number;
}
