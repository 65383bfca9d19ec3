import type { INestApplication } from '@nestjs/common';
import { api } from '../support/http';
import {
  createOrder,
  createOrderItem,
  createShipmentItem,
  testTrackingNumber,
} from './commerce.factory';
import { uniqueSubdomain, upload } from './media.factory';
import { Tenant, createTenant } from './tenant.factory';

export interface SiteParcel {
  id: string;
  trackingNumber: string;
  hash: string;
}

export interface TrackingSite {
  tenant: Tenant;
  pageId: string;
  subdomain: string;
  orderNumber: string;
  email: string;
  /** One parcel per sandbox prefix asked for, all of one order, keyed by prefix. */
  parcels: Record<string, SiteParcel>;
}

/**
 * A shop with a branded tracking page and one order shipped in several parcels (sandbox
 * numbers `TM<prefix>...TM`, tracked on creation), each carrying one item with an uploaded
 * image, and a link per parcel.
 */
export async function createTrackingSite(
  app: INestApplication,
  opts: {
    prefixes?: string[];
    title?: string;
    workspaceTitle?: string;
    builder?: Record<string, unknown>;
    page?: Record<string, unknown>;
    /** The app's own origin: the first item's image is then an upload served by the app. */
    origin?: string;
  } = {},
): Promise<TrackingSite> {
  const tenant = await createTenant(app, { workspaceTitle: opts.workspaceTitle ?? 'Acme Outdoor' });
  const http = api(app, { token: tenant.token });
  const workspace = `/workspaces/${tenant.workspaceId}`;
  const subdomain = uniqueSubdomain('site');
  const pageId = (
    await http
      .post('/tracking_pages', {
        workspace,
        subdomain,
        title: opts.title ?? 'Acme Outdoor',
        builder: opts.builder ?? {
          header: { backgroundColor: '#0b3d2e' },
          trackButton: { backgroundColor: '#0b6e4f', borderRadius: 6 },
          card: { font: { fontFamily: 'Georgia' } },
        },
        ...opts.page,
      })
      .expect(201)
  ).body.id as string;
  const email = `buyer-${tenant.workspaceId.slice(0, 8)}@example.test`;
  const order = await createOrder(app, tenant, { email, phoneNumber: '+49 151 23456789' });
  const image = (
    await upload(app, tenant.token, undefined, 'jacket.png', { workspace }).expect(201)
  ).body.filePath as string;
  const parcels: Record<string, SiteParcel> = {};
  for (const [i, prefix] of (opts.prefixes ?? ['200']).entries()) {
    const trackingNumber = testTrackingNumber(prefix);
    const item = await createOrderItem(app, tenant, order['@id'], {
      productName: ['Trail jacket', 'Hiking boots', 'Wool socks', 'Rain cover'][i % 4],
      qty: 2,
      // Items link images on the shop's CDN (never loaded by the page) unless ours.
      imageUrl:
        i === 0 && opts.origin ? `${opts.origin}${image}` : `https://cdn.shop.example/p${i}.png`,
    });
    const shipmentItem = await createShipmentItem(app, tenant, {
      shipment: { workspace, trackingNumber },
      orderItem: item['@id'],
      qty: i === 0 ? 2 : 1,
    });
    const id = String(shipmentItem.shipment).split('/').pop()!;
    const link = await http
      .post('/generate_tracking_page_link', { trackingPageId: pageId, filter: { id } })
      .expect(201);
    parcels[prefix] = { id, trackingNumber, hash: String(link.body.link).split('/').pop()! };
  }
  return { tenant, pageId, subdomain, orderNumber: order.orderNumber, email, parcels };
}
