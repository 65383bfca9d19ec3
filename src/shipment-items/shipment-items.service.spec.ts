import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import type { RecordChangeEvents } from '../events/record-change-events';
import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { ResourceRegistry } from '../hydra/metadata/resource-registry';
import type { WriteContext } from '../hydra/core/resource-hooks';
import type { ResourceWriter } from '../hydra/write/resource-writer';
import type { OrderItemStore } from '../order-items/order-item-store';
import type { OrderStore } from '../orders/order-store';
import type { ShipmentEvents } from '../shipments/shipment-events';
import type { ShipmentRecordsStore } from '../shipments/shipment-records-store';
import type { ShipmentsService } from '../shipments/shipments.service';
import type { WorkflowStore } from '../workflows/workflow-store';
import { FakeRecords, type World, newWorld } from '../../test/fakes/order-records';
import type { ShipmentItem } from './shipment-item.entity';
import type { ShipmentItemStore, StoredShipmentItem } from './shipment-item-store';
import { ShipmentItemsService, type ShipmentItemWrite } from './shipment-items.service';

const W1 = '10000000-0000-4000-8000-000000000001';
const W2 = '10000000-0000-4000-8000-000000000002';
const principal: Principal = {
  userId: 'u',
  email: 'u@x.test',
  teamIds: [],
  adminTeamIds: [],
  workspaceIds: [W1, W2],
};

/** The quantity rule of shipment items, checked in `validate` with the order item locked. */
describe('ShipmentItemsService quantities', () => {
  let world: World;
  let fakes: FakeRecords;
  let service: ShipmentItemsService;
  let orderItem: string;
  let shipment: string;
  const em = {} as EntityManager;

  beforeEach(() => {
    world = newWorld();
    fakes = new FakeRecords(world);
    const stored = (_em: unknown, id: string): Promise<StoredShipmentItem> => {
      const row = world.shipmentItems.find((si) => si.id === id)!;
      const item = world.items.find((i) => i.id === row.orderItemId)!;
      return Promise.resolve({
        orderItemId: row.orderItemId,
        workspaceId: world.shipments.get(row.shipmentId)!.workspaceId,
        qty: row.qty,
        orderId: item.orderId,
      });
    };
    service = new ShipmentItemsService(
      {} as ResourceRegistry,
      {} as ResourceWriter,
      {} as ShipmentsService,
      fakes.changes as unknown as RecordChangeEvents,
      fakes.shipmentEvents as unknown as ShipmentEvents,
      { ...fakes.shipmentItems, stored } as unknown as ShipmentItemStore,
      fakes.orderItems as unknown as OrderItemStore,
      fakes.orders as unknown as OrderStore,
      fakes.shipments as unknown as ShipmentRecordsStore,
      { workspacesOf: () => Promise.resolve(new Map()) } as unknown as WorkflowStore,
    );
    const order = fakes.addOrder({ workspaceId: W1, orderNumber: 'ON1' });
    orderItem = fakes.addItem(order, 5);
    shipment = fakes.addShipment(W1, []);
  });

  async function validate(item: ShipmentItem, operation: 'post' | 'put') {
    const base = { principal, operation, resource: {} as never, em, body: {}, nested: {} };
    const state = await service.begin(item, { ...base, state: undefined });
    const ctx: WriteContext<ShipmentItemWrite> = { ...base, state };
    await service.prepare(item, ctx);
    return service.validate(item, ctx);
  }

  async function refusedQty(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof ValidationError) {
        expect(error.violations).toEqual([
          expect.objectContaining({ propertyPath: 'qty', code: ViolationCodes.lessThanOrEqual }),
        ]);
        return error.violations[0].message;
      }
      throw error;
    }
    throw new Error('the quantity was accepted');
  }

  const newItem = (qty: number, orderItemId = orderItem) =>
    ({ shipment: { id: shipment }, orderItem: { id: orderItemId }, qty }) as ShipmentItem;

  it('may carry what the order item still lacks, checked with the order item locked', async () => {
    fakes.addShipmentItem(orderItem, fakes.addShipment(W1, []), 3);
    expect(await validate(newItem(2), 'post')).toEqual([]);
    expect(world.locked).toEqual([orderItem]);
    expect(await refusedQty(validate(newItem(3), 'post'))).toMatch(/less than or equal to 2\b/);
  });

  it('takes the shipment’s workspace, and refuses an order item of another', async () => {
    const foreignOrder = fakes.addOrder({ workspaceId: W2 });
    const foreign = fakes.addItem(foreignOrder, 5);
    const item = newItem(1, foreign);
    expect(await validate(item, 'post')).toEqual([
      expect.objectContaining({ propertyPath: 'orderItem', code: ViolationCodes.invalid }),
    ]);
    expect(item.workspace.id).toBe(W1);
  });

  it('an update does not count its own stored quantity against itself', async () => {
    const id = fakes.addShipmentItem(orderItem, shipment, 4);
    fakes.addShipmentItem(orderItem, fakes.addShipment(W1, []), 1);
    const put = { id, qty: 4 } as ShipmentItem;
    expect(await validate(put, 'put')).toEqual([]);
    // The stored order item is kept when the body leaves it out.
    expect(put.orderItem.id).toBe(orderItem);
    expect(await refusedQty(validate({ id, qty: 5 } as ShipmentItem, 'put'))).toMatch(/to 4\b/);
  });

  it('a quantity is never refused for being zero', async () => {
    fakes.addShipmentItem(orderItem, fakes.addShipment(W1, []), 5);
    const item = newItem(0);
    await expect(validate(item, 'post')).resolves.toEqual([]);
    await expect(validate(newItem(1), 'post')).rejects.toBeInstanceOf(ApiError);
  });
});
