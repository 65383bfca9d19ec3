import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError, NotFoundError } from '../../common/errors/api-errors';
import { isUuid } from '../../hydra/core/identifiers';
import type { StoreWebhookDelivery } from '../store-platform';
import { isStorePlatformType, verifyStoreWebhook } from '../store-platforms';
import { StoreSyncInboxStore } from '../sync/store-sync-inbox-store';
import { StoreSyncQueue } from '../sync/store-sync-queue';
import { StoreSyncStateStore } from '../sync/store-sync-state-store';
import { StoreWorkflows } from '../sync/store-workflows';

/** What a store webhook delivery became. */
export interface StoreWebhookReceipt {
  /** `queued`: the workflow's next run imports it; `duplicate`: that delivery came before. */
  outcome: 'queued' | 'duplicate' | 'ignored' | 'ping';
}

/**
 * Store webhooks (`POST /public/store_webhooks/{type}/{workflowId}`): the platform's proof is
 * checked over the exact bytes (Shopify's X-Shopify-Hmac-SHA256 with the app's secret,
 * WooCommerce's X-WC-Webhook-Signature with ours, BigCommerce's custom header); a delivery
 * without it is 401 and changes nothing. An authentic one is stored, de-duplicated by the
 * platform's delivery key, and a run queued, in one transaction, and answered at once (the
 * stores give 5 s or so); the run reads the order and imports it as a pull would.
 */
@Injectable()
export class StoreWebhooks {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stores: StoreWorkflows,
    private readonly state: StoreSyncStateStore,
    private readonly inbox: StoreSyncInboxStore,
    private readonly queue: StoreSyncQueue,
  ) {}

  async receive(
    type: string,
    workflowId: string,
    delivery: StoreWebhookDelivery,
  ): Promise<StoreWebhookReceipt> {
    if (!isStorePlatformType(type) || !isUuid(workflowId)) throw new NotFoundError();
    const workflow = await this.stores.load(workflowId);
    // A workflow this service does not run (no credentials of its type) has no receiver.
    if (!workflow || workflow.platform !== type || !workflow.credentials) throw new NotFoundError();
    const verdict = workflow.connection
      ? verifyStoreWebhook(workflow.connection, delivery)
      : { kind: 'rejected' as const, reason: 'the credentials are incomplete' };
    if (verdict.kind === 'rejected')
      throw new ApiError(401, `The delivery is not the store's: ${verdict.reason}.`);
    if (verdict.kind === 'ping') return { outcome: 'ping' };
    if (verdict.kind === 'ignored') return { outcome: 'ignored' };
    const state = await this.state.find(this.dataSource, workflowId);
    // Disabled or not set up: nothing is imported now; the first pull reads it anyway.
    if (!workflow.live || !state?.active) return { outcome: 'ignored' };
    const fresh = await this.dataSource.transaction(async (em) => {
      const stored = await this.inbox.receive(em, {
        workflowId,
        dedupKey: verdict.dedupKey,
        kind: verdict.kind,
        storeOrderId: verdict.kind === 'order' ? verdict.orderId : null,
        topic: verdict.topic,
        payload: verdict.kind === 'privacy' ? bodyOf(delivery.rawBody) : null,
        // BigCommerce's hash names the content (every change of an order has the same one).
        reopen: workflow.platform === 'bigcommerce',
      });
      if (stored) await this.queue.request(workflowId, 'webhook', { runner: em });
      return stored;
    });
    return { outcome: fresh ? 'queued' : 'duplicate' };
  }
}

/** The JSON object a delivery carries, or null. */
function bodyOf(raw: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
