import { Controller } from '@nestjs/common';
import type { Principal } from '../../access/principal';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { classSchema } from '../../hydra/actions/action-schemas';
import { StoreWebhooks, type StoreWebhookReceipt } from './store-webhooks';
import { StoreWebhookPayload, StoreWebhookReceiptOutput } from './store-webhooks.output';

/**
 * Where Shopify, WooCommerce and BigCommerce deliver the webhooks a store workflow subscribed
 * (its runs subscribe them); the platform's proof over the exact bytes authenticates them.
 */
@Controller()
export class StoreWebhooksController {
  constructor(private readonly webhooks: StoreWebhooks) {}

  @Action({
    bodySchema: {
      ...classSchema(StoreWebhookPayload),
      description:
        'The store’s own webhook payload, exactly as it sends it (signatures cover the raw bytes).',
    },
    method: 'POST',
    path: '/public/store_webhooks/:type/:workflowId',
    summary: 'Receives a store’s webhook deliveries for a store workflow.',
    description:
      'Authenticates the delivery with the platform’s proof over the exact body bytes (`type` shopify, woocommerce or bigcommerce) and queues the order for the workflow’s next run. Answers plain JSON `{outcome}` at once: `queued`, `duplicate` (the same delivery again), `ignored` or `ping`.',
    output: { json: StoreWebhookReceiptOutput },
    formats: 'any',
    responses: {
      401: { description: 'A missing or wrong signature or secret header: nothing is done.' },
      404: { description: 'No store workflow of this type run by this service.' },
    },
    access: 'public',
  })
  async receive(
    _input: unknown,
    _principal: Principal | undefined,
    context: ActionContext,
  ): Promise<StoreWebhookReceipt> {
    return this.webhooks.receive(context.params.type, context.params.workflowId, {
      headers: new Proxy(
        {},
        { get: (_t, name) => (typeof name === 'string' ? context.header(name) : undefined) },
      ),
      rawBody: context.rawBody ?? Buffer.alloc(0),
    });
  }
}
