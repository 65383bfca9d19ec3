import { Injectable } from '@nestjs/common';
import { CarrierPageStore } from '../../carriers/carrier-page-store';
import { OrderItemPageStore } from '../../order-items/order-item-page-store';
import { ShipmentPageStore, type OrderContact } from '../../shipments/shipment-page-store';
import { WorkspacePageStore } from '../../workspaces/workspace-page-store';

/** Most parcels and items one page lists (an order rarely has more). */
const MAX_PARCELS = 20;
const MAX_ITEMS = 50;

export interface PageShipmentExtras {
  orderNumbers: string[];
  customFields: Record<string, unknown>;
}

export interface PageWorkspace {
  title: string;
  /** Path of the workspace's uploaded logo (served by this app), or null. */
  logoPath: string | null;
}

export interface PageCarrier {
  code: string;
  name: string;
  trackingUrlTemplate: string | null;
}

export interface PageItem {
  name: string | null;
  sku: string | null;
  imageUrl: string | null;
  qty: number;
}

export interface SiblingParcel {
  shipmentId: string;
  trackingNumber: string | null;
  trackingStatus: string | null;
  shippedAt: Date | null;
  expectedDeliveryDate: Date | null;
  orderNumbers: string[];
  customFields: Record<string, unknown>;
}

/**
 * What the public pages show beyond the link's JSON view, read through the stores of the
 * tables' owners (one statement each, as before) and shaped for the page model.
 */
@Injectable()
export class ShipmentPageReads {
  constructor(
    private readonly shipments: ShipmentPageStore,
    private readonly workspaces: WorkspacePageStore,
    private readonly carrierStore: CarrierPageStore,
    private readonly orderItems: OrderItemPageStore,
  ) {}

  async shipmentExtras(shipmentId: string): Promise<PageShipmentExtras> {
    const row = await this.shipments.extras(shipmentId);
    return { orderNumbers: row?.order_numbers ?? [], customFields: row?.custom_fields ?? {} };
  }

  async workspace(workspaceId: string): Promise<PageWorkspace> {
    const row = await this.workspaces.brand(workspaceId);
    return { title: row?.title ?? '', logoPath: row?.logo_path ?? null };
  }

  async carriers(codes: Array<string | null>): Promise<Map<string, PageCarrier>> {
    const wanted = [...new Set(codes.filter((c): c is string => !!c))];
    const rows = await this.carrierStore.byCodes(wanted);
    return new Map(
      rows.map((r) => [
        r.code,
        { code: r.code, name: r.name ?? r.code, trackingUrlTemplate: r.tracking_url_template },
      ]),
    );
  }

  /** The order items this shipment carries, with the quantity it carries. */
  async items(shipmentId: string): Promise<PageItem[]> {
    const rows = await this.orderItems.carriedBy(shipmentId, MAX_ITEMS);
    return rows.map((r) => ({
      name: r.product_name ?? null,
      sku: r.product_sku ?? null,
      imageUrl: r.image_url ?? null,
      qty: Number(r.qty),
    }));
  }

  /** The other shipments of this shipment's orders (linked orders, or shared order numbers). */
  async siblings(workspaceId: string, shipmentId: string): Promise<SiblingParcel[]> {
    const rows = await this.shipments.siblings(workspaceId, shipmentId, MAX_PARCELS);
    return rows.map((r) => ({
      shipmentId: r.id,
      trackingNumber: r.tracking_number,
      trackingStatus: r.tracking_status,
      shippedAt: r.shipped_at,
      expectedDeliveryDate: r.expected_delivery_date,
      orderNumbers: r.order_numbers ?? [],
      customFields: r.custom_fields ?? {},
    }));
  }

  /** Shipments of a workspace with this tracking number (as typed or upper case), newest first. */
  byTrackingNumber(workspaceId: string, trackingNumber: string): Promise<string[]> {
    const numbers = [...new Set([trackingNumber, trackingNumber.toUpperCase()])];
    return this.shipments.byTrackingNumbers(workspaceId, numbers, MAX_PARCELS);
  }

  /**
   * Shipments of an order whose e-mail or phone the customer gave: an order of the workspace
   * with that number (its e-mail or phone), or shipments carrying the order number (theirs).
   * Phones match on their last digits (`phoneTail`: up to nine, seven at least), so that
   * `+49 151 2345 6789` and `0151 23456789` are the same number.
   */
  byOrder(workspaceId: string, orderNumber: string, contact: OrderContact): Promise<string[]> {
    return this.shipments.byOrderContact(workspaceId, orderNumber, contact, MAX_PARCELS);
  }
}
