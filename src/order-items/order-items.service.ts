import { Injectable } from '@nestjs/common';
import {
  RecordChangeEvents,
  type RecordSnapshot,
  type RecordsBefore,
} from '../events/record-change-events';
import { Violation, ViolationCodes } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOf } from '../notes/record-notes';
import { refreshOrderAggregates } from '../orders/order-aggregates';
import { Order } from '../orders/order.entity';
import { ShipmentEvents } from '../shipments/shipment-events';
import type { Workspace } from '../workspaces/workspace.entity';
import { OrderItem } from './order-item.entity';
import { blankToNull } from '../shipments/text-input';
import { refuseDuplicateSyncId } from '../orders/external-sync-id';

/**
 * Order item rules: the item lives in its order's workspace; qty and price
 * default to 0; qty may not drop below what shipments already carry; the
 * order's fulfilment is recomputed with every change, and the order gets
 * `order.updated` (`cause: "order_item"`) when that changed how it reads.
 */
@Injectable()
export class OrderItemsService implements ResourceHooks<OrderItem> {
  private readonly orderOf = new WeakMap<OrderItem, string>();
  private readonly before = new WeakMap<OrderItem, RecordSnapshot | null>();
  /** The item's order as it read before the write (RecordChangeEvents.watch). */
  private readonly orderBefore = new WeakMap<OrderItem, RecordsBefore>();

  constructor(
    private readonly changes: RecordChangeEvents,
    private readonly shipmentEvents: ShipmentEvents,
  ) {}

  async prepare(item: OrderItem, ctx: WriteContext): Promise<void> {
    if (ctx.operation === 'put') {
      const [row] = await ctx.em.query('SELECT order_id FROM order_item WHERE id = $1', [item.id]);
      this.orderOf.set(item, row.order_id);
      this.before.set(item, await this.changes.snapshot(ctx.em, OrderItem, item.id));
    } else if (item.order?.id) {
      this.orderOf.set(item, item.order.id);
      const [row] = await ctx.em.query('SELECT workspace_id FROM "order" WHERE id = $1', [
        item.order.id,
      ]);
      if (row) item.workspace = { id: row.workspace_id } as Workspace;
    }
    this.orderBefore.set(
      item,
      await this.changes.watch(ctx.em, 'order', Order, [this.orderOf.get(item)]),
    );
    item.qty ??= 0;
    item.price ??= '0';
    item.productOptions ??= {};
    item.productName = blankToNull(item.productName);
    item.productSku = blankToNull(item.productSku);
    item.externalProductId = blankToNull(item.externalProductId);
    item.externalSourceSyncId = blankToNull(item.externalSourceSyncId);
    item.externalSourceIntegration = blankToNull(item.externalSourceIntegration);
    item.imageUrl = blankToNull(item.imageUrl);
    item.externalProductLink = blankToNull(item.externalProductLink);
  }

  async validate(item: OrderItem, ctx: WriteContext): Promise<Violation[]> {
    const violations: Violation[] = [];
    if (ctx.operation === 'post' && item.workspace?.id) {
      await refuseDuplicateSyncId(
        ctx.em,
        'order_item',
        item.workspace.id,
        item.externalSourceIntegration,
        item.externalSourceSyncId,
      );
      violations.push(...(await this.catalogueViolations(item, ctx)));
    }
    const options = item.productOptions;
    if (
      typeof options !== 'object' ||
      options === null ||
      Array.isArray(options) ||
      Object.values(options).some((v) => typeof v !== 'string')
    ) {
      violations.push({
        propertyPath: 'productOptions',
        message: 'This value should be an object of option codes to string values.',
        code: ViolationCodes.invalid,
      });
    }
    if (ctx.operation === 'put') {
      // The row is locked by the write: shipment items of it wait for us.
      const [row] = await ctx.em.query(
        'SELECT COALESCE(sum(qty), 0)::int AS shipped FROM shipment_item WHERE order_item_id = $1',
        [item.id],
      );
      if (item.qty < row.shipped) {
        violations.push({
          propertyPath: 'qty',
          message: `This value should be greater than or equal to ${row.shipped}, the quantity already in shipments.`,
          code: ViolationCodes.greaterThanOrEqual,
        });
      }
    }
    return violations;
  }

  /** The product and variant must be of the order's team, the variant of that product. */
  private async catalogueViolations(item: OrderItem, ctx: WriteContext): Promise<Violation[]> {
    const productId = item.product?.id ?? null;
    const variantId = item.productVariant?.id ?? null;
    if (!productId && !variantId) return [];
    const [row] = await ctx.em.query(
      `SELECT w.team_id,
              (SELECT team_id FROM product WHERE id = $2) AS product_team,
              (SELECT team_id FROM product_variant WHERE id = $3) AS variant_team,
              (SELECT product_id FROM product_variant WHERE id = $3) AS variant_product
         FROM workspace w WHERE w.id = $1`,
      [item.workspace.id, productId, variantId],
    );
    const violations: Violation[] = [];
    if (productId && row.product_team !== row.team_id) {
      violations.push({
        propertyPath: 'product',
        message: 'The product must belong to the team of the order.',
        code: ViolationCodes.invalid,
      });
    }
    if (variantId && row.variant_team !== row.team_id) {
      violations.push({
        propertyPath: 'productVariant',
        message: 'The product variant must belong to the team of the order.',
        code: ViolationCodes.invalid,
      });
    } else if (variantId && productId && row.variant_product !== productId) {
      violations.push({
        propertyPath: 'productVariant',
        message: 'The product variant must be a variant of the product.',
        code: ViolationCodes.invalid,
      });
    }
    return violations;
  }

  async afterWrite(item: OrderItem, ctx: WriteContext): Promise<void> {
    await refreshOrderAggregates(ctx.em, [this.orderOf.get(item)]);
    if (ctx.operation === 'post') {
      await this.changes.created(ctx.em, 'order_item', OrderItem, item.id);
    } else {
      const before = this.before.get(item) ?? null;
      await this.changes.updated(ctx.em, 'order_item', OrderItem, item.id, before);
    }
    const orderBefore = this.orderBefore.get(item) ?? new Map();
    await this.changes.indirectlyUpdated(ctx.em, 'order', Order, orderBefore, 'order_item');
  }

  /**
   * Deletes the item (its shipment items go with it) and the notes on both (removeNotesOf),
   * then recomputes the order's fulfilment; the shipments that carried it (`shipmentItems`)
   * and its order (`items`, fulfilment) get `shipment.updated` / `order.updated` with
   * `cause: "order_item"`. Every delete path of an order item (DELETE, delete_records_batch)
   * runs this.
   */
  async remove(item: OrderItem, ctx: WriteContext): Promise<void> {
    const { em } = ctx;
    const before = await this.changes.snapshot(em, OrderItem, item.id);
    const [row]: Array<{ order_id: string; workspace_id: string; shipment_ids: string[] }> =
      await em.query(
        `SELECT order_id, workspace_id,
                ARRAY(SELECT DISTINCT shipment_id FROM shipment_item WHERE order_item_id = $1)
                  AS shipment_ids
           FROM order_item WHERE id = $1`,
        [item.id],
      );
    const shipmentsBefore = await this.shipmentEvents.watch(em, row?.shipment_ids ?? []);
    const orderBefore = await this.changes.watch(em, 'order', Order, [row?.order_id]);
    if (row) await removeNotesOf(em, row.workspace_id, 'order_items', [item.id]);
    await em.delete(OrderItem, { id: item.id });
    await refreshOrderAggregates(em, [row?.order_id]);
    await this.changes.deleted(em, 'order_item', item.id, before);
    await this.shipmentEvents.indirectlyUpdated(em, shipmentsBefore, 'order_item');
    await this.changes.indirectlyUpdated(em, 'order', Order, orderBefore, 'order_item');
  }
}
