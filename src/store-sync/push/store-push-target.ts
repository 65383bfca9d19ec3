import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../access/principal';
import { AppConfig } from '../../config/app-config';
import { publicBaseUrl } from '../../config/public-base-url';
import type { SqlRunner } from '../../database/query';
import type {
  EventDeliveryTarget,
  TargetedEvent,
  TargetOutcome,
} from '../../events/delivery-targets';
import { EventTypes } from '../../events/event-types';
import { HydraApi } from '../../hydra/controller/hydra-api';
import { identifierFrom } from '../../hydra/core/identifiers';
import { QueryParams } from '../../hydra/core/query-params';
import { Shipment } from '../../shipments/shipment.entity';
import { TrackingPageLinksService } from '../../tracking-pages/tracking-page-links.service';
import { findCarrier } from '../../tracking/carriers/carrier-catalogue';
import { TrackingCheckpoint } from '../../tracking/checkpoints/tracking-checkpoint.entity';
import { isTrackingStatusCode, type TrackingStatusCode } from '../../tracking/statuses';
import { Workspace } from '../../workspaces/workspace.entity';
import { storePushes, trackingChangeOf } from '../rules/push-plan';
import { StoreSyncError } from '../store-errors';
import type { StoreClient } from '../store-platform';
import { StoreSyncRecordStore, type ShipmentLink } from '../sync/store-sync-record-store';
import { StoreSyncStateStore } from '../sync/store-sync-state-store';
import { StoreWorkflows, type StoreWorkflow } from '../sync/store-workflows';
import { StorePushStore } from './store-push-store';

/** The delivery target's name (event_delivery.target). */
export const STORE_PUSH_TARGET = 'store';

const ok: TargetOutcome = { ok: true, permanent: false, error: null };

/**
 * Tracking sent back to stores, as outbox deliveries of their own (EVENT_DELIVERY_TARGETS):
 * a `shipment.status_changed` of a shipment a store workflow imported goes to that workflow
 * (dispatched with the outbox's other targets, attempted by the same loop, retried with its
 * backoff: at least once). What is sent is decided when it is sent (rules/push-plan.ts), and
 * each push checks the store first (client `push`), so a retried delivery sends nothing twice.
 * A store that refuses the credentials marks them and stops the workflow's pushes (no retry
 * storm); one that is down or throttling is retried later, the workflow's later events with it.
 */
@Injectable()
export class StorePushTarget implements EventDeliveryTarget {
  readonly name = STORE_PUSH_TARGET;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly api: HydraApi,
    private readonly records: StoreSyncRecordStore,
    private readonly state: StoreSyncStateStore,
    private readonly pushes: StorePushStore,
    private readonly stores: StoreWorkflows,
    private readonly links: TrackingPageLinksService,
  ) {}

  async workflowsFor(runner: SqlRunner, events: readonly TargetedEvent[]): Promise<string[][]> {
    const wanted = events.flatMap((event, i) =>
      event.type === EventTypes.shipmentStatusChanged && event.aggregateType === 'shipment'
        ? [{ i, shipmentId: event.aggregateId, at: event.createdAt }]
        : [],
    );
    const lists = events.map((): string[] => []);
    const found = await this.records.pushTargets(runner, wanted);
    found.forEach((workflows, k) => lists[wanted[k].i].push(...workflows));
    return lists;
  }

  async deliver(workflowId: string, events: readonly TargetedEvent[]): Promise<TargetOutcome[]> {
    const workflow = await this.stores.load(workflowId);
    const refusal = !workflow?.live
      ? 'The workflow no longer syncs its store (disabled, or its credentials changed).'
      : workflow.credentials?.rejectedAt
        ? 'The store refused the workflow’s credentials; update them to send tracking again.'
        : (workflow.problem ?? (workflow.principal ? null : 'The team has no owner or admin.'));
    if (refusal || !workflow?.connection || !workflow.principal)
      return events.map(() => ({ ok: false, permanent: true, error: refusal }));
    const client = this.stores.connect(workflow);
    const outcomes: TargetOutcome[] = [];
    let stopped: TargetOutcome | null = null;
    let sent = 0;
    try {
      for (const event of events) {
        if (stopped) {
          outcomes.push(stopped);
          continue;
        }
        try {
          sent += await this.pushOne(workflow, workflow.principal, client, event);
          outcomes.push(ok);
        } catch (error) {
          if (!(error instanceof StoreSyncError)) throw error;
          const failure = { ok: false, error: error.message };
          if (error.kind === 'credentials_rejected') {
            await this.stores.credentialsRejected(workflow, error.message);
            stopped = { ...failure, permanent: true };
          } else if (error.kind === 'refused') stopped = { ...failure, permanent: true };
          else if (error.kind === 'unavailable' || error.kind === 'rate_limited')
            stopped = { ...failure, permanent: false };
          // Wrong for this one (a fulfillment the store deleted): given up, the rest goes on.
          outcomes.push(stopped ?? { ...failure, permanent: true });
        }
      }
    } finally {
      client.close();
      await this.state.addEventsSent(this.dataSource, workflowId, sent);
    }
    return outcomes;
  }

  /** One status change sent; answers how many pushes the store did not have yet. */
  private async pushOne(
    workflow: StoreWorkflow,
    principal: Principal,
    client: StoreClient,
    event: TargetedEvent,
  ): Promise<number> {
    const link = await this.records.shipmentLink(this.dataSource, workflow.id, event.aggregateId);
    if (!link) return 0; // no longer the store's parcel
    const shipment = await this.api.data.find(
      this.api.resource(Shipment),
      principal,
      link.shipmentId,
    );
    if (!shipment) return 0;
    const change = trackingChangeOf({
      storeOrderId: link.storeOrderId,
      storeShipmentId: link.storeId,
      payload: event.payload,
      recordedAt: event.createdAt,
      trackingNumber: text(shipment.trackingNumber),
      carrierName: carrierName(shipment.originCarrier),
      expectedDeliveryDate: date(shipment.expectedDeliveryDate),
      checkpoint: await this.latestCheckpoint(principal, link.shipmentId),
      trackingPageUrl: await this.trackingPageUrl(principal, workflow.workspaceId, link.shipmentId),
    });
    if (!change) return 0;
    const fulfillmentId = link.storeId.replace(/:\d+$/, '');
    const actions = storePushes(workflow.platform, change, {
      alreadySent:
        workflow.platform === 'shopify'
          ? await this.pushes.sentStatuses(this.dataSource, workflow.id, fulfillmentId)
          : [],
      orderStatuses:
        workflow.platform === 'shopify' ? [] : await this.orderStatuses(principal, workflow, link),
      options: workflow.options,
    });
    let sent = 0;
    for (const action of actions) {
      const result = await client.push(action);
      if (result.sent) sent++;
      if (action.kind === 'shopify.fulfillmentEvent')
        await this.pushes.recordSent(this.dataSource, workflow.id, fulfillmentId, action.status);
    }
    return sent;
  }

  private async latestCheckpoint(principal: Principal, shipmentId: string) {
    const page = await this.api.data.list({
      resource: this.api.resource(TrackingCheckpoint),
      principal,
      params: QueryParams.fromUrl('?itemsPerPage=1&order[checkpointDate]=desc'),
      scope: [{ path: 'shipment', id: shipmentId }],
    });
    const c = page.members[0];
    const at = c ? date(c.checkpointDate) : null;
    if (!c || !at) return null;
    return {
      status: String(c.status),
      checkpointDate: at,
      location: text(c.location),
      countryIso2: text(c.countryIso2),
      info: text(c.info),
    };
  }

  /** The statuses of every shipment imported from the parcel's store order. */
  private async orderStatuses(
    principal: Principal,
    workflow: StoreWorkflow,
    link: ShipmentLink,
  ): Promise<Array<TrackingStatusCode | null>> {
    const ids = await this.records.orderShipments(this.dataSource, workflow.id, link.storeOrderId);
    if (ids.length === 0) return [];
    const page = await this.api.data.list({
      resource: this.api.resource(Shipment),
      principal,
      params: QueryParams.fromUrl(
        `?itemsPerPage=${ids.length}&${ids.map((id) => `id[]=${id}`).join('&')}`,
      ),
    });
    return page.members.map((s) =>
      isTrackingStatusCode(s.trackingStatus) ? s.trackingStatus : null,
    );
  }

  /** The customer's tracking page of the shipment (the workspace's default page), if any. */
  private async trackingPageUrl(
    principal: Principal,
    workspaceId: string,
    shipmentId: string,
  ): Promise<string | null> {
    const workspace = await this.api.data.find(
      this.api.resource(Workspace),
      principal,
      workspaceId,
    );
    const page =
      typeof workspace?.defaultTrackingPage === 'string'
        ? identifierFrom(workspace.defaultTrackingPage)
        : null;
    if (!page) return null;
    const hash = await this.links.hashFor(this.dataSource.manager, workspaceId, page, shipmentId);
    const base = (this.config.publicTrackingBaseUrl ?? publicBaseUrl(this.config)).replace(
      /\/+$/,
      '',
    );
    return `${base}/t/${hash}`;
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function date(value: unknown): Date | null {
  if (typeof value !== 'string' && !(value instanceof Date)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

function carrierName(code: unknown): string | null {
  return typeof code === 'string' ? (findCarrier(code)?.name ?? code) : null;
}
