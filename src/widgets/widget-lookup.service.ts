import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../common/errors/api-errors';
import { isUuid } from '../hydra/core/identifiers';
import { ShipmentPageStore } from '../shipments/shipment-page-store';
import { CheckpointPageStore } from '../tracking/checkpoints/checkpoint-page-store';
import { type PublicCheckpoint, publicTrackingView } from '../tracking-pages/public-tracking-view';
import { TrackingPagesService } from '../tracking-pages/tracking-pages.service';
import type { WidgetOption, WidgetType } from './widget.entity';
import { LookupQuery, lookupLogInfo, parseLookup, refusedLogInfo } from './widget-lookup';
import type { WidgetShipment } from './public-widgets.output';
import { WidgetStore } from './widget-store';

export interface PublicWidget {
  id: string;
  title: string;
  type: WidgetType;
  options: WidgetOption[];
}

interface StoredWidget extends PublicWidget {
  workspaceId: string;
}

/** Shipments one lookup may answer (an order rarely has more). */
const MAX_SHIPMENTS = 20;
const MAX_CHECKPOINTS = 50;

/**
 * Public side of widgets: an enabled widget's presentation, and lookups through it. Every
 * lookup, answered or refused, is written to the widget's log.
 */
@Injectable()
export class WidgetLookupService {
  constructor(
    private readonly store: WidgetStore,
    private readonly shipments: ShipmentPageStore,
    private readonly checkpointStore: CheckpointPageStore,
    private readonly pages: TrackingPagesService,
  ) {}

  /** An enabled widget; 404 for unknown and disabled ones alike. */
  async publicWidget(id: string): Promise<StoredWidget> {
    if (!isUuid(id)) throw new NotFoundError();
    const row = await this.store.enabled(id.toLowerCase());
    if (!row) throw new NotFoundError();
    return {
      id: row.id,
      title: row.title,
      type: row.type,
      options: row.options,
      workspaceId: row.workspace_id,
    };
  }

  async lookup(
    widgetId: string,
    body: Record<string, unknown>,
  ): Promise<{ widget: PublicWidget; shipments: WidgetShipment[] }> {
    const widget = await this.publicWidget(widgetId);
    const parsed = parseLookup(widget.type, body);
    if ('violations' in parsed) {
      await this.log(widget, refusedLogInfo(parsed.violations));
      throw new ValidationError(parsed.violations);
    }
    const ids = await this.find(widget.workspaceId, parsed.query);
    const shipments = await this.describe(widget.workspaceId, ids, widget.options);
    await this.log(widget, lookupLogInfo(parsed.query, shipments.length));
    const { workspaceId: _workspace, ...shown } = widget;
    return { widget: shown, shipments };
  }

  private async log(widget: StoredWidget, info: string): Promise<void> {
    await this.store.log(widget.id, widget.workspaceId, info);
  }

  /** Shipment ids of the workspace answering the query (order lookups need the order's e-mail). */
  private async find(workspaceId: string, query: LookupQuery): Promise<string[]> {
    if (query.kind === 'trackingNumber') {
      const numbers = [...new Set([query.trackingNumber, query.trackingNumber.toUpperCase()])];
      return this.shipments.byTrackingNumbers(workspaceId, numbers, MAX_SHIPMENTS);
    }
    return this.shipments.byOrderEmail(workspaceId, query.orderNumber, query.email, MAX_SHIPMENTS);
  }

  /**
   * The shipments as the widget's options show them, through the same `publicTrackingView` as
   * the tracking page, with the workspace's default page's dropshipper settings: carriers,
   * places and texts the page hides are hidden here too.
   */
  private async describe(
    workspaceId: string,
    ids: string[],
    options: WidgetOption[],
  ): Promise<WidgetShipment[]> {
    if (ids.length === 0) return [];
    const rows = await this.shipments.publicFactsOf(ids);
    const hiding = await this.pages.defaultPageHiding(workspaceId);
    const checkpoints = new Map<string, PublicCheckpoint[]>();
    if (options.includes('show_checkpoints')) {
      const cps = await this.checkpointStore.latestOf(ids, MAX_CHECKPOINTS);
      for (const c of cps) {
        const list = checkpoints.get(c.shipment_id) ?? [];
        list.push({
          checkpointDate: iso(c.checkpoint_date)!,
          status: c.status,
          info: c.info,
          location: c.location,
          countryIso2: c.country_iso2,
          carrier: c.carrier,
        });
        checkpoints.set(c.shipment_id, list);
      }
    }
    return rows.map((s) => {
      const view = publicTrackingView(
        {
          trackingNumber: s.tracking_number,
          trackingStatus: s.tracking_status,
          originCarrier: s.origin_carrier,
          destinationCarrier: s.destination_carrier,
          originCountry: s.origin_country,
          originCountryIso2: s.origin_country_iso2,
          destinationCountry: s.destination_country,
          destinationCountryIso2: s.destination_country_iso2,
          shippedAt: iso(s.shipped_at),
          expectedDeliveryDate: iso(s.expected_delivery_date),
          lastStatusUpdate: iso(s.last_status_update),
          daysInTransit: s.days_in_transit,
          createdAt: iso(s.created_at)!,
        },
        checkpoints.get(s.id) ?? [],
        hiding,
      );
      const shown = view.shipment;
      const out: WidgetShipment = {
        trackingNumber: shown.trackingNumber,
        trackingStatus: shown.trackingStatus,
        shippedAt: shown.shippedAt,
        lastStatusUpdate: shown.lastStatusUpdate,
      };
      if (options.includes('show_carrier')) {
        out.originCarrier = shown.originCarrier;
        out.destinationCarrier = shown.destinationCarrier;
      }
      if (options.includes('show_expected_delivery'))
        out.expectedDeliveryDate = shown.expectedDeliveryDate;
      if (options.includes('show_checkpoints'))
        out.checkpoints = view.checkpoints.map((c) => ({
          checkpointDate: c.checkpointDate,
          status: c.status,
          info: c.info,
          location: c.location,
          countryIso2: c.countryIso2,
        }));
      return out;
    });
  }
}

function iso(value: unknown): string | null {
  if (value == null) return null;
  return (value instanceof Date ? value : new Date(String(value)))
    .toISOString()
    .replace(/\.\d{3}Z$/, '+00:00');
}
