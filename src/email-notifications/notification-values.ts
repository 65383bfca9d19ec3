import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { formatDateTime } from '../hydra/serialization/record-reader';
import { publicBaseUrl } from '../config/public-base-url';
import { TrackingPageLinksService } from '../tracking-pages/tracking-page-links.service';
import { findTrackingStatus } from '../tracking/statuses';
import type { TemplateValues } from './email-template';
import { query } from '../database/query';

interface ShipmentRow {
  id: string;
  workspace_id: string;
  tracking_number: string | null;
  tracking_status: string | null;
  origin_carrier: string | null;
  destination_carrier: string | null;
  destination_country: string | null;
  email: string | null;
  order_numbers: string[];
  shipped_at: Date | null;
  expected_delivery_date: Date | null;
  address_first_name: string | null;
  address_last_name: string | null;
  address_city: string | null;
  address_country_iso2: string | null;
  status_title: string | null;
  status_code: string | null;
  workspace_title: string;
  default_tracking_page_id: string | null;
}

export interface NotificationSubject {
  values: TemplateValues;
  /** The customer's address on the shipment, if any. */
  email: string | null;
}

/** Status changes carry the statuses of the moment; the rest comes from the shipment now. */
export interface EventFacts {
  event: string;
  trackingStatus?: string | null;
  previousStatus?: string | null;
}

const statusTitle = (code: string | null | undefined) =>
  code ? (findTrackingStatus(code)?.title ?? code) : null;
const date = (v: Date | null) => (v ? formatDateTime(new Date(v)) : null);

/**
 * The template values of a notification about a shipment: the shipment's fields, the
 * workspace's title and the public tracking page link (the notification's page, else the
 * workspace's default page; created on first use like generate_tracking_page_link).
 */
@Injectable()
export class NotificationValues {
  constructor(
    private readonly links: TrackingPageLinksService,
    private readonly config: AppConfig,
  ) {}

  async forShipment(
    em: EntityManager,
    shipmentId: string,
    trackingPageId: string | null,
    facts: EventFacts,
  ): Promise<NotificationSubject | null> {
    const rows = await query<ShipmentRow>(
      em,
      `SELECT s.id, s.workspace_id, s.tracking_number, s.tracking_status, s.origin_carrier,
              s.destination_carrier, s.destination_country, s.email, s.order_numbers, s.shipped_at,
              s.expected_delivery_date, s.address_first_name, s.address_last_name, s.address_city,
              s.address_country_iso2, st.title AS status_title, st.code AS status_code,
              w.title AS workspace_title, w.default_tracking_page_id
         FROM shipment s
         JOIN workspace w ON w.id = s.workspace_id
         LEFT JOIN status st ON st.id = s.shipment_status_id
        WHERE s.id = $1`,
      [shipmentId],
    );
    if (rows.length === 0) return null;
    const s = rows[0];
    const pageId = trackingPageId ?? s.default_tracking_page_id;
    const trackingUrl = pageId
      ? `${this.trackingBase()}/t/${await this.links.hashFor(em, s.workspace_id, pageId, s.id)}`
      : null;
    const trackingStatus =
      facts.trackingStatus !== undefined ? facts.trackingStatus : s.tracking_status;
    return {
      email: s.email,
      values: {
        event: facts.event,
        trackingNumber: s.tracking_number,
        trackingStatus,
        trackingStatusTitle: statusTitle(trackingStatus),
        previousStatus: facts.previousStatus ?? null,
        previousStatusTitle: statusTitle(facts.previousStatus),
        originCarrier: s.origin_carrier,
        destinationCarrier: s.destination_carrier,
        destinationCountry: s.destination_country,
        email: s.email,
        orderNumbers: (s.order_numbers ?? []).join(', '),
        shippedAt: date(s.shipped_at),
        expectedDeliveryDate: date(s.expected_delivery_date),
        firstName: s.address_first_name,
        lastName: s.address_last_name,
        city: s.address_city,
        countryIso2: s.address_country_iso2,
        shipmentStatus: s.status_title ?? s.status_code,
        workspaceTitle: s.workspace_title,
        trackingUrl,
      },
    };
  }

  /** Made-up values for previews and test mails without a shipment. */
  sample(event: string, workspaceTitle: string): TemplateValues {
    const status =
      event.startsWith('shipment.') && event !== 'shipment.status_changed'
        ? event.slice('shipment.'.length)
        : 'in_transit';
    return {
      event,
      trackingNumber: 'TM200SAMPLE0001TM',
      trackingStatus: status,
      trackingStatusTitle: statusTitle(status),
      previousStatus: 'pre_transit',
      previousStatusTitle: statusTitle('pre_transit'),
      originCarrier: 'usps',
      destinationCarrier: 'usps',
      destinationCountry: 'United States',
      email: 'customer@example.com',
      orderNumbers: '1001',
      shippedAt: formatDateTime(new Date(Date.UTC(2025, 0, 2, 9, 30))),
      expectedDeliveryDate: formatDateTime(new Date(Date.UTC(2025, 0, 6, 18, 0))),
      firstName: 'Alex',
      lastName: 'Sample',
      city: 'Springfield',
      countryIso2: 'US',
      shipmentStatus: 'Shipped',
      workspaceTitle,
      trackingUrl: `${this.trackingBase()}/t/sample`,
    };
  }

  private trackingBase(): string {
    return (this.config.publicTrackingBaseUrl ?? publicBaseUrl(this.config)).replace(/\/+$/, '');
  }
}
