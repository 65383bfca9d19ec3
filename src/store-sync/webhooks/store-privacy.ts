import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../access/principal';
import { NotificationsService } from '../../notifications/notifications.service';
import { TeamLookupStore } from '../../teams/team-lookup-store';
import { StoreOrderImporter } from '../import/store-order-importer';
import type { InboxEntry } from '../sync/store-sync-inbox-store';
import { StoreSyncRecordStore } from '../sync/store-sync-record-store';
import type { StoreWorkflow } from '../sync/store-workflows';

export const STORE_PRIVACY_TAG = 'store_privacy_request';

/** Order ids a privacy delivery names (`orders_requested`, `orders_to_redact`). */
export function privacyOrderIds(payload: Record<string, unknown> | null): string[] | null {
  const ids = payload?.orders_requested ?? payload?.orders_to_redact;
  if (!Array.isArray(ids)) return null;
  return ids
    .filter((id) => typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)))
    .map(String);
}

/**
 * Shopify's mandatory privacy topics [official], handled by the workflow's next run:
 * `customers/data_request` tells the team's owners and admins which of our records hold the
 * customer's orders (the merchant answers the customer); `customers/redact` blanks the
 * personal data of those orders and their shipments (through their PUT); `shop/redact` (sent
 * after the app was uninstalled) deletes everything the workflow imported, as
 * `DELETE /workflows/{id}?deleteData=1` would.
 */
@Injectable()
export class StorePrivacy {
  private readonly logger = new Logger(StorePrivacy.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly records: StoreSyncRecordStore,
    private readonly importer: StoreOrderImporter,
    private readonly teams: TeamLookupStore,
    private readonly notifications: NotificationsService,
  ) {}

  async handle(workflow: StoreWorkflow, principal: Principal, entry: InboxEntry): Promise<void> {
    const topic = entry.topic ?? '';
    const orderIds = topic === 'shop/redact' ? null : (privacyOrderIds(entry.payload) ?? []);
    const records = await this.records.ofOrders(this.dataSource, workflow.id, orderIds);
    let done: string;
    if (topic === 'customers/redact') {
      done = `${await this.importer.redact(principal, records)} record(s) redacted`;
    } else if (topic === 'shop/redact') {
      done = `${await this.importer.removeImported(principal, records)} record(s) deleted`;
    } else {
      const iris = records
        .filter((r) => r.kind !== 'order_item')
        .map((r) => `/${r.kind === 'order' ? 'orders' : 'shipments'}/${r.recordId}`);
      done = `records: ${iris.join(', ') || 'none'}`;
    }
    const message =
      `Shopify ${topic} for workflow ${workflow.title ?? workflow.id}` +
      (orderIds ? ` (store orders ${orderIds.join(', ') || 'none'})` : '') +
      `: ${done}.`;
    for (const userId of await this.teams.adminIds(this.dataSource, workflow.teamId))
      await this.notifications.notify({
        userId,
        tag: STORE_PRIVACY_TAG,
        message,
        data: [`/workflows/${workflow.id}`],
      });
    this.logger.log(message);
  }
}
