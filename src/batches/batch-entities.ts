import type { Type } from '@nestjs/common';
import { OrderItem } from '../order-items/order-item.entity';
import { OrderItemsService } from '../order-items/order-items.service';
import { Order } from '../orders/order.entity';
import { OrdersService } from '../orders/orders.service';
import { ShipmentItem } from '../shipment-items/shipment-item.entity';
import { ShipmentItemsService } from '../shipment-items/shipment-items.service';
import { Shipment } from '../shipments/shipment.entity';
import { ShipmentsService } from '../shipments/shipments.service';
import type { ResourceHooks } from '../hydra/core/resource-hooks';
import type { StatusEntity } from '../statuses/status.entity';

/** A kind of record the batch actions work on, named like its collection. */
export interface BatchEntity {
  name: string;
  target: Function;
  /** The domain rules its single-record routes use (deletes go through them too). */
  hooks: Type<ResourceHooks>;
  table: string;
  /** Where its workspace status lives, for change_status_batch. */
  status?: { column: string; entity: StatusEntity };
}

export const BATCH_ENTITIES: Record<string, BatchEntity> = {
  shipments: {
    name: 'shipments',
    target: Shipment,
    hooks: ShipmentsService,
    table: 'shipment',
    status: { column: 'shipment_status_id', entity: 'shipments' },
  },
  orders: {
    name: 'orders',
    target: Order,
    hooks: OrdersService,
    table: '"order"',
    status: { column: 'order_status_id', entity: 'orders' },
  },
  order_items: {
    name: 'order_items',
    target: OrderItem,
    hooks: OrderItemsService,
    table: 'order_item',
  },
  shipment_items: {
    name: 'shipment_items',
    target: ShipmentItem,
    hooks: ShipmentItemsService,
    table: 'shipment_item',
  },
};

export const STATUS_BATCH_ENTITIES = Object.values(BATCH_ENTITIES)
  .filter((e) => e.status)
  .map((e) => e.name);
export const DELETE_BATCH_ENTITIES = Object.keys(BATCH_ENTITIES);
