import { Injectable } from '@nestjs/common';
import { RecordChangeEvents, type RecordSnapshot } from '../events/record-change-events';
import { normalizeAddress } from '../addresses/address-rules';
import { ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOf } from '../notes/record-notes';
import { ShipmentEvents } from '../shipments/shipment-events';
import { linkShipmentsToOrder, unlinkShipmentsFromOrder } from '../shipments/shipment-orders';
import { checkStatusReference, findOrCreateStatus } from '../statuses/status-references';
import type { Status } from '../statuses/status.entity';
import { refreshOrderAggregates } from './order-aggregates';
import { Order } from './order.entity';
import { blankToNull } from '../shipments/text-input';
import { refuseDuplicateSyncId } from './external-sync-id';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * Order rules: order numbers unique per workspace, ISO 4217 currency
 * (USD by default), decimal totals (0 by default), embedded status
 * find-or-create, contact validation, and links to shipments kept
 * consistent with the shipments' `orderNumbers` in both directions (also
 * when the order is deleted). The number itself is set on POST only (the
 * spec's Order-Put has none), so shipments never need it renamed.
 *
 * Shipments changed that way (links, `orderNumbers`, and on a deletion the
 * items of the order's items) get a `shipment.updated` with `cause: "order"`
 * in the write's transaction: webhooks hear of it, e-mail notifications do
 * not match it (an order's edit never mails the customer; src/events/README.md).
 */
@Injectable()
export class OrdersService implements ResourceHooks<Order> {
  private readonly workspaceOf = new WeakMap<Order, string>();
  private readonly before = new WeakMap<Order, RecordSnapshot | null>();

  constructor(
    private readonly changes: RecordChangeEvents,
    private readonly shipmentEvents: ShipmentEvents,
  ) {}

  async prepare(order: Order, ctx: WriteContext): Promise<void> {
    if (ctx.operation === 'put') {
      const [row] = await ctx.em.query('SELECT workspace_id FROM "order" WHERE id = $1', [
        order.id,
      ]);
      this.workspaceOf.set(order, row.workspace_id);
      this.before.set(order, await this.changes.snapshot(ctx.em, Order, order.id));
    } else if (order.workspace?.id) {
      this.workspaceOf.set(order, order.workspace.id);
    }
    order.orderNumber = blankToNull(order.orderNumber);
    order.email = blankToNull(order.email);
    order.phoneNumber = blankToNull(order.phoneNumber);
    order.externalSourceSyncId = blankToNull(order.externalSourceSyncId);
    order.externalSourceUrl = blankToNull(order.externalSourceUrl);
    order.externalSourceIntegration = blankToNull(order.externalSourceIntegration);
    // The reference's default: store plugins never send a type.
    if (ctx.operation === 'post') order.orderType = blankToNull(order.orderType) ?? 'customer';
    // Documented defaults: totals 0 and currency USD, also when sent as null.
    order.subtotal ??= '0';
    order.total ??= '0';
    order.currency = blankToNull(order.currency)?.toUpperCase() ?? 'USD';
    normalizeAddress(order.shippingAddress);
    normalizeAddress(order.billingAddress);

    const statusInput = ctx.nested.orderStatus;
    const workspaceId = this.workspaceOf.get(order);
    if (statusInput === null) order.orderStatus = null;
    else if (statusInput !== undefined && workspaceId) {
      const id = await findOrCreateStatus(
        ctx.em,
        workspaceId,
        'orders',
        statusInput,
        'orderStatus',
      );
      order.orderStatus = { id } as Status;
    }
  }

  async validate(order: Order, ctx: WriteContext): Promise<Violation[]> {
    const workspaceId = this.workspaceOf.get(order)!;
    const violations: Violation[] = [];
    if (ctx.operation === 'post') {
      await refuseDuplicateSyncId(
        ctx.em,
        'order',
        workspaceId,
        order.externalSourceIntegration,
        order.externalSourceSyncId,
      );
    }
    if (!CURRENCIES.has(order.currency)) {
      violations.push({
        propertyPath: 'currency',
        message: 'This value is not a valid currency.',
        code: ViolationCodes.invalid,
      });
    }
    if (order.orderNumber !== null && ctx.operation === 'post') {
      const taken = await ctx.em.query(
        'SELECT 1 FROM "order" WHERE workspace_id = $1 AND order_number = $2 LIMIT 1',
        [workspaceId, order.orderNumber],
      );
      if (taken.length) {
        violations.push({
          propertyPath: 'orderNumber',
          message: 'This order number is already used by another order of the workspace.',
          code: ViolationCodes.unique,
        });
      }
    }
    if (
      order.orderStatus?.id &&
      ctx.nested.orderStatus === undefined &&
      has(ctx.body, 'orderStatus')
    ) {
      try {
        await checkStatusReference(
          ctx.em,
          order.orderStatus.id,
          workspaceId,
          'orders',
          'orderStatus',
        );
      } catch (error) {
        if (error instanceof ValidationError) violations.push(...error.violations);
        else throw error;
      }
    }
    if (has(ctx.body, 'shipments') && order.shipments) {
      const ids = order.shipments.map((s) => s.id);
      const rows: Array<{ id: string; workspace_id: string }> = ids.length
        ? await ctx.em.query('SELECT id, workspace_id FROM shipment WHERE id = ANY($1::uuid[])', [
            ids,
          ])
        : [];
      const owner = new Map(rows.map((r) => [r.id, r.workspace_id]));
      ids.forEach((id, i) => {
        if (owner.get(id) !== workspaceId) {
          violations.push({
            propertyPath: `shipments[${i}]`,
            message: 'The shipment must belong to the workspace of the order.',
            code: ViolationCodes.invalid,
          });
        }
      });
    }
    return violations;
  }

  /**
   * Saves the order and its shipment links. A new order is linked to the
   * workspace's shipments that already carry its number; `shipments` given
   * replaces the links, adding or removing the order number on the shipments.
   * Only the shipments it links or unlinks are read for their events.
   */
  async persist(order: Order, ctx: WriteContext): Promise<void> {
    const { em } = ctx;
    const givenShipmentIds = has(ctx.body, 'shipments')
      ? (order.shipments ?? []).map((s) => s.id)
      : undefined;
    delete (order as Partial<Order>).shipments;
    delete (order as Partial<Order>).items;
    await em.save(order);

    const ref = { id: order.id, orderNumber: order.orderNumber };
    const existing: string[] = (
      await em.query('SELECT shipment_id FROM shipment_order WHERE order_id = $1', [order.id])
    ).map((r: { shipment_id: string }) => r.shipment_id);
    const wanted = new Set(givenShipmentIds ?? existing);
    if (ctx.operation === 'post' && order.orderNumber) {
      const carrying: Array<{ id: string }> = await em.query(
        'SELECT id FROM shipment WHERE workspace_id = $1 AND order_numbers @> ARRAY[$2]::text[]',
        [this.workspaceOf.get(order), order.orderNumber],
      );
      for (const s of carrying) wanted.add(s.id);
    }
    const unlinked = existing.filter((id) => !wanted.has(id));
    const linked = [...wanted].filter((id) => !existing.includes(id));
    const shipmentsBefore = await this.shipmentEvents.watch(em, [...unlinked, ...linked]);
    await unlinkShipmentsFromOrder(em, ref, unlinked);
    await linkShipmentsToOrder(em, ref, [...wanted]);
    await refreshOrderAggregates(em, [order.id]);
    await this.shipmentEvents.indirectlyUpdated(em, shipmentsBefore, 'order');
  }

  /** `order.created` / `order.updated` in the write's transaction (src/events/README.md). */
  async afterWrite(order: Order, ctx: WriteContext): Promise<void> {
    if (ctx.operation === 'post') await this.changes.created(ctx.em, 'order', Order, order.id);
    else
      await this.changes.updated(ctx.em, 'order', Order, order.id, this.before.get(order) ?? null);
  }

  /**
   * Deletes the order (its items go with it, and their shipment items): its
   * shipments lose the link and its number, and the notes on it go
   * (removeNotesOf). Every delete path of an order (DELETE,
   * delete_records_batch) runs this.
   */
  async remove(order: Order, ctx: WriteContext): Promise<void> {
    const { em } = ctx;
    const before = await this.changes.snapshot(em, Order, order.id);
    const [row]: Array<{ workspace_id: string; order_number: string | null }> = await em.query(
      'SELECT workspace_id, order_number FROM "order" WHERE id = $1',
      [order.id],
    );
    // The linked shipments, and those carrying the order's items (linked too, unless a PUT of
    // the shipment dropped the link): the deletion changes them all.
    const shipments: Array<{ shipment_id: string; linked: boolean }> = await em.query(
      `SELECT shipment_id, true AS linked FROM shipment_order WHERE order_id = $1
       UNION
       SELECT si.shipment_id, false FROM shipment_item si
         JOIN order_item oi ON oi.id = si.order_item_id
        WHERE oi.order_id = $1`,
      [order.id],
    );
    const linked = shipments.filter((s) => s.linked).map((s) => s.shipment_id);
    const shipmentsBefore = await this.shipmentEvents.watch(
      em,
      shipments.map((s) => s.shipment_id),
    );
    await unlinkShipmentsFromOrder(em, { id: order.id, orderNumber: row.order_number }, linked);
    await removeNotesOf(em, row.workspace_id, 'orders', [order.id]);
    await em.delete(Order, { id: order.id });
    await this.changes.deleted(em, 'order', order.id, before);
    await this.shipmentEvents.indirectlyUpdated(em, shipmentsBefore, 'order');
  }
}

function has(body: Record<string, unknown>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, name);
}
