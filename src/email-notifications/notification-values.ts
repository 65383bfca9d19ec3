import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { SqlRunner } from '../database/query';
import { formatDateTime } from '../hydra/serialization/record-reader';
import { publicBaseUrl } from '../config/public-base-url';
import { ShipmentNotificationStore } from '../shipments/shipment-notification-store';
import { TrackingPageLinksService } from '../tracking-pages/tracking-page-links.service';
import { findTrackingStatus } from '../tracking/statuses';
import type { TemplateValues } from './email-template';

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
    private readonly shipments: ShipmentNotificationStore,
  ) {}

  async forShipment(
    em: SqlRunner,
    shipmentId: string,
    trackingPageId: string | null,
    facts: EventFacts,
  ): Promise<NotificationSubject | null> {
    const s = await this.shipments.facts(em, shipmentId);
    if (!s) return null;
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
