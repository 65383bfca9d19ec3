import { Documented } from '../../hydra/validation/documented';

/** What a store webhook delivery became. */
export class StoreWebhookReceiptOutput {
  @Documented({
    type: 'string',
    enum: ['queued', 'duplicate', 'ignored', 'ping'],
    required: true,
    description:
      'queued: the next run imports it; duplicate: received before; ignored: a topic or workflow state that imports nothing; ping: a webhook’s creation ping.',
  })
  outcome!: 'queued' | 'duplicate' | 'ignored' | 'ping';
}

/** A store's own webhook payload, exactly as it sends it (documented; read as raw bytes). */
export class StoreWebhookPayload {}
