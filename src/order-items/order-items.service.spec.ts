import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import type { RecordChangeEvents } from '../events/record-change-events';
import { ApiError, ViolationCodes, type Violation } from '../common/errors/api-errors';
import type { WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOf } from '../notes/record-notes';
import type { OrderStore } from '../orders/order-store';
import type { ProductStore } from '../products/product-store';
import type { ShipmentEvents } from '../shipments/shipment-events';
import { FakeRecords, type World, newWorld } from '../../test/fakes/order-records';
import type { OrderItem } from './order-item.entity';
import type { OrderItemStore } from './order-item-store';
import { OrderItemsService, type OrderItemWrite } from './order-items.service';

jest.mock('../notes/record-notes', () => ({ removeNotesOf: jest.fn() }));
const notes = { removeNotesOf: jest.mocked(removeNotesOf) };

const W1 = '10000000-0000-4000-8000-000000000001';
const W2 = '10000000-0000-4000-8000-000000000002';
const principal: Principal = {
  userId: 'u',
  email: 'u@x.test',
  teamIds: [],
  adminTeamIds: [],
  workspaceIds: [W1, W2],
};

describe('OrderItemsService', () => {
  let world: World;
  let fakes: FakeRecords;
  let service: OrderItemsService;
  let orderId: string;
  const em = {} as EntityManager;

  beforeEach(() => {
    world = newWorld();
    fakes = new FakeRecords(world);
    notes.removeNotesOf.mockImplementation(
      (_em: unknown, workspaceId: string, entity: string, ids: string[]) => {
        world.notesRemoved.push({ workspaceId, entity, ids });
        return Promise.resolve(0);
      },
    );
    service = new OrderItemsService(
      fakes.changes as unknown as RecordChangeEvents,
      fakes.shipmentEvents as unknown as ShipmentEvents,
      fakes.orderItems as unknown as OrderItemStore,
      fakes.orders as unknown as OrderStore,
      fakes.products as unknown as ProductStore,
    );
    orderId = fakes.addOrder({ workspaceId: W1, orderNumber: 'ON1' });
  });

  /** The steps of a write up to validation; the violations, or the error thrown. */
  async function check(
    item: OrderItem,
    operation: 'post' | 'put',
    body: Record<string, unknown> = {},
  ): Promise<{ ctx: WriteContext<OrderItemWrite>; violations: Violation[] }> {
    const base = { principal, operation, resource: {} as never, em, body, nested: {} };
    const state = await service.begin(item, { ...base, state: undefined });
    const ctx: WriteContext<OrderItemWrite> = { ...base, state };
    await service.prepare(item, ctx);
    return { ctx, violations: await service.validate(item, ctx) };
  }

  async function rejection(promise: Promise<unknown>): Promise<ApiError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
    throw new Error('the write was not refused');
  }

  it('a new item lives in its order’s workspace, with zero quantity and price by default', async () => {
    const item = { order: { id: orderId }, productName: ' ' } as OrderItem;
    const { ctx, violations } = await check(item, 'post');
    expect(violations).toEqual([]);
    expect(item).toMatchObject({
      workspace: { id: W1 },
      qty: 0,
      price: '0',
      productOptions: {},
      productName: null,
    });
    expect(ctx.state.orderId).toBe(orderId);
    // The order is watched before the write changes how it reads.
    expect([...ctx.state.orderBefore.keys()]).toEqual([orderId]);
  });

  it('product options are an object of strings', async () => {
    for (const productOptions of [[], 'red', { size: 3 }]) {
      const item = { order: { id: orderId }, productOptions } as unknown as OrderItem;
      const { violations } = await check(item, 'post');
      expect(violations).toEqual([expect.objectContaining({ propertyPath: 'productOptions' })]);
    }
    const item = { order: { id: orderId }, productOptions: { size: 'L' } } as unknown as OrderItem;
    expect((await check(item, 'post')).violations).toEqual([]);
  });

  it('a second item with the same store id from the same integration is a 400', async () => {
    world.items.push({
      id: 'i1',
      orderId,
      workspaceId: W1,
      qty: 1,
      integration: '/workflows/a',
      syncId: '7',
    });
    const synced = (integration: string) =>
      ({
        order: { id: orderId },
        externalSourceIntegration: integration,
        externalSourceSyncId: '7',
      }) as OrderItem;
    expect((await rejection(check(synced('/workflows/a'), 'post'))).status).toBe(400);
    expect((await check(synced('/workflows/b'), 'post')).violations).toEqual([]);
  });

  it('the product and variant must be of the order’s team, the variant of the product', async () => {
    world.workspaceTeams.set(W1, 'team1');
    world.products.set('p1', { teamId: 'team1' });
    world.products.set('p2', { teamId: 'team1' });
    world.products.set('foreign', { teamId: 'team2' });
    world.variants.set('v1', { teamId: 'team1', productId: 'p1' });
    const withCatalogue = (product: string | null, variant: string | null) =>
      ({
        order: { id: orderId },
        product: product && { id: product },
        productVariant: variant && { id: variant },
      }) as OrderItem;
    const paths = async (product: string | null, variant: string | null) =>
      (await check(withCatalogue(product, variant), 'post')).violations.map((v) => v.message);
    expect(await paths('p1', 'v1')).toEqual([]);
    expect(await paths('foreign', null)).toEqual([
      'The product must belong to the team of the order.',
    ]);
    expect(await paths('p2', 'v1')).toEqual([
      'The product variant must be a variant of the product.',
    ]);
  });

  it('a PUT may not drop the quantity below what shipments carry', async () => {
    const id = fakes.addItem(orderId, 5);
    fakes.addShipmentItem(id, fakes.addShipment(W1, ['ON1']), 3);
    const { violations } = await check({ id, qty: 2 } as OrderItem, 'put', { qty: 2 });
    expect(violations).toEqual([
      expect.objectContaining({
        propertyPath: 'qty',
        code: ViolationCodes.greaterThanOrEqual,
        message: expect.stringContaining('3'),
      }),
    ]);
    const { ctx, violations: none } = await check({ id, qty: 3 } as OrderItem, 'put', { qty: 3 });
    expect(none).toEqual([]);
    expect(ctx.state.orderId).toBe(orderId);
  });

  it('a write recomputes its order’s fulfilment and tells what changed', async () => {
    const id = fakes.addItem(orderId, 2);
    fakes.addShipmentItem(id, fakes.addShipment(W1, ['ON1']), 2);
    const item = { id, qty: 4 } as OrderItem;
    const { ctx } = await check(item, 'put', { qty: 4 });
    world.items.find((i) => i.id === id)!.qty = 4; // what persisting the PUT writes
    await service.afterWrite(item, ctx);
    expect(world.refreshed).toEqual([[orderId]]);
    expect(world.orders.get(orderId)!.fulfillmentStatus).toBe('partial');
    expect(world.events).toEqual([
      ['order_item.updated', id],
      ['order.updated(indirect)', orderId],
    ]);
  });

  it('deleting an item takes its shipment items and notes, and recomputes the order', async () => {
    const id = fakes.addItem(orderId, 2);
    const other = fakes.addItem(orderId, 1);
    const shipment = fakes.addShipment(W1, ['ON1']);
    fakes.addShipmentItem(id, shipment, 2);
    const base = { principal, operation: 'delete' as const, resource: {} as never, em, body: {} };
    const state = await service.begin({ id } as OrderItem, {
      ...base,
      nested: {},
      state: undefined,
    });
    await service.remove({ id } as OrderItem, { ...base, nested: {}, state });
    expect(world.items.map((i) => i.id)).toEqual([other]);
    expect(world.shipmentItems).toEqual([]);
    expect(world.notesRemoved).toEqual([{ workspaceId: W1, entity: 'order_items', ids: [id] }]);
    expect(world.refreshed).toEqual([[orderId]]);
    expect(world.orders.get(orderId)!.fulfillmentStatus).toBe('not_fulfilled');
    expect(world.watchedShipments).toEqual([[shipment]]);
    expect(world.events).toEqual([
      ['order_item.deleted', id],
      ['shipment.updated(indirect)', shipment],
      ['order.updated(indirect)', orderId],
    ]);
    expect(state.before).toEqual(expect.objectContaining({ workspaceId: W1 }));
  });

  it('an item of a workspace the caller also sees stays in its own order’s workspace', async () => {
    const elsewhere = fakes.addOrder({ workspaceId: W2 });
    const item = { order: { id: elsewhere } } as OrderItem;
    await check(item, 'post');
    expect(item.workspace.id).toBe(W2);
  });
});
