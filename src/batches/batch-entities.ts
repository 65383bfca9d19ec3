import type { Type } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SqlRunner } from '../database/query';
import { OrderItem } from '../order-items/order-item.entity';
import { OrderItemStore } from '../order-items/order-item-store';
import { OrderItemsService } from '../order-items/order-items.service';
import { Order } from '../orders/order.entity';
import { OrderStore } from '../orders/order-store';
import { OrdersService } from '../orders/orders.service';
import { ShipmentItem } from '../shipment-items/shipment-item.entity';
import { ShipmentItemStore } from '../shipment-items/shipment-item-store';
import { ShipmentItemsService } from '../shipment-items/shipment-items.service';
import { Shipment } from '../shipments/shipment.entity';
import { ShipmentBatchStore } from '../shipments/shipment-batch-store';
import { ShipmentsService } from '../shipments/shipments.service';
import type { ResourceHooks } from '../hydra/core/resource-hooks';
import type { StatusEntity } from '../statuses/status.entity';

/** What every batch needs of a kind of record's table, from its owner's store. */
export interface BatchRecordStore {
  /**
   * The records among `ids` that belong to these workspaces, with their workspace, in id
   * order; locked FOR UPDATE (in that order) when `lock`.
   */
  records(
    runner: SqlRunner,
    ids: readonly string[],
    workspaceIds: readonly string[],
    lock: boolean,
  ): Promise<Array<{ id: string; workspaceId: string }>>;
}

/** What change_status_batch needs besides: the status assignment, from the owner's store. */
export interface StatusBatchStore extends BatchRecordStore {
  /**
   * Gives the records among `ids` their workspace's status (workspace id -> status id) where
   * they have another; answers the ids it changed.
   */
  assignStatus(
    em: EntityManager,
    ids: readonly string[],
    statusByWorkspace: ReadonlyMap<string, string>,
  ): Promise<string[]>;
}

/** A kind of record the batch actions work on, named like its collection. */
export interface BatchEntity {
  name: string;
  target: Function;
  /** The domain rules its single-record routes use (deletes go through them too). */
  hooks: Type<ResourceHooks>;
  /** Its table's store (the owner module's, which provides it). */
  store: Type<BatchRecordStore>;
  /** The kind of workspace status it carries and the store assigning it, for change_status_batch. */
  status?: { entity: StatusEntity; store: Type<StatusBatchStore> };
}

export const BATCH_ENTITIES: Record<string, BatchEntity> = {
  shipments: {
    name: 'shipments',
    target: Shipment,
    hooks: ShipmentsService,
    store: ShipmentBatchStore,
    status: { entity: 'shipments', store: ShipmentBatchStore },
  },
  orders: {
    name: 'orders',
    target: Order,
    hooks: OrdersService,
    store: OrderStore,
    status: { entity: 'orders', store: OrderStore },
  },
  order_items: {
    name: 'order_items',
    target: OrderItem,
    hooks: OrderItemsService,
    store: OrderItemStore,
  },
  shipment_items: {
    name: 'shipment_items',
    target: ShipmentItem,
    hooks: ShipmentItemsService,
    store: ShipmentItemStore,
  },
};

export const STATUS_BATCH_ENTITIES = Object.values(BATCH_ENTITIES)
  .filter((e) => e.status)
  .map((e) => e.name);
export const DELETE_BATCH_ENTITIES = Object.keys(BATCH_ENTITIES);
