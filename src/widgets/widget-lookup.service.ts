import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotFoundError, ValidationError } from '../common/errors/api-errors';
import { isUuid } from '../hydra/core/identifiers';
import { defaultPageHiding } from '../tracking-pages/default-page-hiding';
import { type PublicCheckpoint, publicTrackingView } from '../tracking-pages/public-tracking-view';
import type { WidgetOption, WidgetType } from './widget.entity';
import { LookupQuery, lookupLogInfo, parseLookup, refusedLogInfo } from './widget-lookup';
import type { WidgetShipment } from './public-widgets.output';

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
  constructor(private readonly dataSource: DataSource) {}

  /** An enabled widget; 404 for unknown and disabled ones alike. */
  async publicWidget(id: string): Promise<StoredWidget> {
    if (!isUuid(id)) throw new NotFoundError();
    const [row] = await this.dataSource.query(
      `SELECT id, title, type, options, workspace_id FROM widget WHERE id = $1 AND enabled`,
      [id.toLowerCase()],
    );
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
    await this.dataSource.query(
      `INSERT INTO widget_log (widget_id, workspace_id, info) VALUES ($1, $2, $3)`,
      [widget.id, widget.workspaceId, info],
    );
  }

  /** Shipment ids of the workspace answering the query (order lookups need the order's e-mail). */
  private async find(workspaceId: string, query: LookupQuery): Promise<string[]> {
    const rows: Array<{ id: string }> =
      query.kind === 'trackingNumber'
        ? await this.dataSource.query(
            `SELECT id FROM shipment
              WHERE workspace_id = $1 AND tracking_number = ANY($2::text[])
              ORDER BY created_at DESC, id LIMIT ${MAX_SHIPMENTS}`,
            [workspaceId, [...new Set([query.trackingNumber, query.trackingNumber.toUpperCase()])]],
          )
        : await this.dataSource.query(
            `SELECT s.id FROM "order" o
               JOIN shipment_order so ON so.order_id = o.id
               JOIN shipment s ON s.id = so.shipment_id
              WHERE o.workspace_id = $1 AND o.order_number = $2
                AND lower(o.email) = lower($3)
              ORDER BY s.created_at DESC, s.id LIMIT ${MAX_SHIPMENTS}`,
            [workspaceId, query.orderNumber, query.email],
          );
    return rows.map((r) => r.id);
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
    const rows = await this.dataSource.query(
      `SELECT id, tracking_number, tracking_status, shipped_at, last_status_update,
              expected_delivery_date, origin_carrier, destination_carrier, origin_country,
              origin_country_iso2, destination_country, destination_country_iso2,
              days_in_transit, created_at
         FROM shipment WHERE id = ANY($1::uuid[]) ORDER BY created_at DESC, id`,
      [ids],
    );
    const hiding = await defaultPageHiding(this.dataSource, workspaceId);
    const checkpoints = new Map<string, PublicCheckpoint[]>();
    if (options.includes('show_checkpoints')) {
      const cps = await this.dataSource.query(
        `SELECT c.shipment_id, c.checkpoint_date, c.status, c.info, c.location, c.country_iso2,
                c.carrier
           FROM shipment s
           CROSS JOIN LATERAL (
             SELECT * FROM tracking_checkpoint t WHERE t.shipment_id = s.id
              ORDER BY t.checkpoint_date DESC, t.id LIMIT ${MAX_CHECKPOINTS}) c
          WHERE s.id = ANY($1::uuid[])
          ORDER BY c.shipment_id, c.checkpoint_date DESC, c.id`,
        [ids],
      );
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
    return rows.map((s: Record<string, any>) => {
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
