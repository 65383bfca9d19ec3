import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import type { RecordChangeEvents } from '../events/record-change-events';
import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOf } from '../notes/record-notes';
import type { ShipmentEvents } from '../shipments/shipment-events';
import { linkShipmentsToOrder, unlinkShipmentsFromOrder } from '../shipments/shipment-orders';
import type { ShipmentRecordsStore } from '../shipments/shipment-records-store';
import type { StatusStore } from '../statuses/status-store';
import { FakeRecords, type World, newWorld } from '../../test/fakes/order-records';
import type { Order } from './order.entity';
import type { OrderStore } from './order-store';
import { OrdersService, type OrderWrite } from './orders.service';

jest.mock('../notes/record-notes', () => ({ removeNotesOf: jest.fn() }));
jest.mock('../shipments/shipment-orders', () => ({
  linkShipmentsToOrder: jest.fn(),
  unlinkShipmentsFromOrder: jest.fn(),
}));
const notes = { removeNotesOf: jest.mocked(removeNotesOf) };
const links = {
  linkShipmentsToOrder: jest.mocked(linkShipmentsToOrder),
  unlinkShipmentsFromOrder: jest.mocked(unlinkShipmentsFromOrder),
};

const W1 = '10000000-0000-4000-8000-000000000001';
const W2 = '10000000-0000-4000-8000-000000000002';
const principal: Principal = {
  userId: 'u',
  email: 'u@x.test',
  teamIds: [],
  adminTeamIds: [],
  workspaceIds: [W1, W2],
};

describe('OrdersService', () => {
  let world: World;
  let fakes: FakeRecords;
  let service: OrdersService;
  const em = {} as EntityManager;

  beforeEach(() => {
    world = newWorld();
    fakes = new FakeRecords(world);
    links.linkShipmentsToOrder.mockImplementation(
      (_em: unknown, order: { id: string; orderNumber: string | null }, ids: string[]) =>
        fakes.link(order, ids),
    );
    links.unlinkShipmentsFromOrder.mockImplementation(
      (_em: unknown, order: { id: string; orderNumber: string | null }, ids: string[]) =>
        fakes.unlink(order, ids),
    );
    notes.removeNotesOf.mockImplementation(
      (_em: unknown, workspaceId: string, entity: string, ids: string[]) => {
        world.notesRemoved.push({ workspaceId, entity, ids });
        return Promise.resolve(0);
      },
    );
    service = new OrdersService(
      fakes.changes as unknown as RecordChangeEvents,
      fakes.shipmentEvents as unknown as ShipmentEvents,
      fakes.orders as unknown as OrderStore,
      fakes.shipments as unknown as ShipmentRecordsStore,
      fakes.statuses as unknown as StatusStore,
    );
    em.save = jest.fn((order: Order) => Promise.resolve(fakes.save(order))) as never;
  });

  function newOrder(fields: Partial<Order> = {}): Order {
    return { workspace: { id: W1 }, orderNumber: 'ON1', ...fields } as Order;
  }

  async function write(
    order: Order,
    operation: 'post' | 'put' | 'delete',
    body: Record<string, unknown> = {},
    nested: WriteContext['nested'] = {},
  ): Promise<{ ctx: WriteContext<OrderWrite>; violations: ApiError | unknown[] }> {
    const base = { principal, operation, resource: {} as never, em, body, nested };
    const state = await service.begin(order, { ...base, state: undefined });
    const ctx: WriteContext<OrderWrite> = { ...base, state };
    if (operation === 'delete') {
      await service.remove(order, ctx);
      return { ctx, violations: [] };
    }
    await service.prepare(order, ctx);
    const violations = await service.validate(order, ctx);
    if (violations.length === 0) {
      await service.persist(order, ctx);
      await service.afterWrite(order, ctx);
    }
    return { ctx, violations };
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

  describe('defaults', () => {
    it('stores blank texts as none, USD and zero totals, customer orders', async () => {
      const order = newOrder({
        email: '  ',
        currency: ' eur ',
        subtotal: null as never,
        externalSourceSyncId: '',
      });
      await write(order, 'post');
      expect(order).toMatchObject({
        email: null,
        currency: 'EUR',
        subtotal: '0',
        total: '0',
        orderType: 'customer',
        externalSourceSyncId: null,
      });
      const other = newOrder({ orderNumber: 'ON2', currency: null as never });
      await write(other, 'post');
      expect(other.currency).toBe('USD');
    });

    it('refuses a currency that is no ISO 4217 code', async () => {
      const { violations } = await write(newOrder({ currency: 'EURO' }), 'post');
      expect(violations).toEqual([expect.objectContaining({ propertyPath: 'currency' })]);
      expect(world.orders.size).toBe(0);
    });
  });

  describe('order numbers', () => {
    it('are unique per workspace on POST', async () => {
      await write(newOrder(), 'post');
      const { violations } = await write(newOrder(), 'post');
      expect(violations).toEqual([
        expect.objectContaining({ propertyPath: 'orderNumber', code: ViolationCodes.unique }),
      ]);
      const { violations: elsewhere } = await write(
        newOrder({ workspace: { id: W2 } as never }),
        'post',
      );
      expect(elsewhere).toEqual([]);
      expect(world.orders.size).toBe(2);
    });

    it('are not checked again on PUT, which keeps the stored workspace', async () => {
      const id = fakes.addOrder({ workspaceId: W2, orderNumber: 'ON1' });
      fakes.addOrder({ workspaceId: W2, orderNumber: 'ON9' });
      const order = { id, orderNumber: 'ON1' } as Order;
      const { ctx, violations } = await write(order, 'put', { total: '3' });
      expect(violations).toEqual([]);
      expect(ctx.state.storedWorkspaceId).toBe(W2);
    });
  });

  describe('store sync ids', () => {
    const synced = (fields: Partial<Order> = {}) =>
      newOrder({
        externalSourceIntegration: '/workflows/a',
        externalSourceSyncId: '42',
        ...fields,
      });

    it('a second order with the same store id from the same integration is a 400', async () => {
      await write(synced(), 'post');
      const error = await rejection(write(synced({ orderNumber: 'ON2' }), 'post'));
      expect(error.status).toBe(400);
      expect(error.description).toMatch(/^externalSourceSyncId: /);
      expect(world.orders.size).toBe(1);
    });

    it('the same store id is free for another integration, workspace, or none', async () => {
      await write(synced(), 'post');
      await write(
        synced({ orderNumber: 'ON2', externalSourceIntegration: '/workflows/b' }),
        'post',
      );
      await write(synced({ workspace: { id: W2 } as never }), 'post');
      await write(newOrder({ orderNumber: 'ON3' }), 'post');
      await write(newOrder({ orderNumber: 'ON4' }), 'post');
      expect(world.orders.size).toBe(5);
      // Only orders with a store id take the check's lock.
      expect(world.syncIdChecks).toBe(3);
    });
  });

  describe('statuses', () => {
    it('an embedded {code} finds or creates the workspace status of orders', async () => {
      const first = newOrder();
      await write(first, 'post', {}, { orderStatus: { code: ' packed ', title: 'Packed' } });
      const second = newOrder({ orderNumber: 'ON2' });
      await write(second, 'post', {}, { orderStatus: { code: 'packed' } });
      expect(first.orderStatus!.id).toBe(second.orderStatus!.id);
      expect(world.statuses).toEqual([
        expect.objectContaining({
          workspaceId: W1,
          entity: 'orders',
          code: 'packed',
          title: 'Packed',
        }),
      ]);
    });

    it('a blank code is a 422 under orderStatus.code; null clears the status', async () => {
      const error = await rejection(write(newOrder(), 'post', {}, { orderStatus: { code: ' ' } }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations[0].propertyPath).toBe('orderStatus.code');
      const order = newOrder({ orderStatus: { id: 'x' } as never });
      await write(order, 'post', {}, { orderStatus: null });
      expect(order.orderStatus).toBeNull();
    });

    it('a status given by IRI must be of the workspace and of orders', async () => {
      const ofShipments = fakes.addStatus(W1, 'shipments', 'sent');
      const ofOtherWorkspace = fakes.addStatus(W2, 'orders', 'sent');
      const own = fakes.addStatus(W1, 'orders', 'sent');
      for (const id of [ofShipments, ofOtherWorkspace]) {
        const { violations } = await write(newOrder({ orderStatus: { id } as never }), 'post', {
          orderStatus: `/statuses/${id}`,
        });
        expect(violations).toEqual([expect.objectContaining({ propertyPath: 'orderStatus' })]);
      }
      const { violations } = await write(newOrder({ orderStatus: { id: own } as never }), 'post', {
        orderStatus: `/statuses/${own}`,
      });
      expect(violations).toEqual([]);
    });
  });

  describe('shipments', () => {
    it('a new order is linked to the shipments of its workspace carrying its number', async () => {
      const carrying = fakes.addShipment(W1, ['ON1']);
      fakes.addShipment(W1, ['ON2']);
      fakes.addShipment(W2, ['ON1']);
      const order = newOrder();
      await write(order, 'post');
      expect(fakes.linkedTo(order.id)).toEqual([carrying]);
      expect(world.refreshed).toEqual([[order.id]]);
      expect(world.events).toContainEqual(['order.created', order.id]);
    });

    it('given shipments replace the links, and must be of the workspace', async () => {
      const kept = fakes.addShipment(W1, []);
      const dropped = fakes.addShipment(W1, []);
      const added = fakes.addShipment(W1, []);
      const foreign = fakes.addShipment(W2, []);
      const order = newOrder();
      await write(order, 'post', { shipments: [] }, {});
      fakes.link({ id: order.id, orderNumber: 'ON1' }, [kept, dropped]);

      // A PUT's entity is the stored row (without its relations) with the body applied.
      const loaded = (fields: Partial<Order>) =>
        ({ id: order.id, orderNumber: 'ON1', ...fields }) as Order;
      const refused = loaded({ shipments: [{ id: added }, { id: foreign }] as never });
      const { violations } = await write(refused, 'put', { shipments: [] });
      expect(violations).toEqual([
        expect.objectContaining({ propertyPath: 'shipments[1]', code: ViolationCodes.invalid }),
      ]);

      const put = loaded({ shipments: [{ id: kept }, { id: added }] as never });
      await write(put, 'put', { shipments: [] });
      expect(fakes.linkedTo(order.id).sort()).toEqual([kept, added].sort());
      expect(world.shipments.get(dropped)!.orderNumbers).toEqual([]);
      expect(world.shipments.get(added)!.orderNumbers).toEqual(['ON1']);
      // Only the shipments it linked or unlinked are watched for their events.
      expect(world.watchedShipments.at(-1)!.sort()).toEqual([dropped, added].sort());
    });

    it('a PUT without shipments keeps the links', async () => {
      const linked = fakes.addShipment(W1, ['ON1']);
      const order = newOrder();
      await write(order, 'post');
      await write({ id: order.id, total: '2' } as Order, 'put', { total: '2' });
      expect(fakes.linkedTo(order.id)).toEqual([linked]);
    });
  });

  describe('aggregates', () => {
    it('are recomputed from the items and the linked shipments on every write', async () => {
      const order = newOrder();
      await write(order, 'post');
      expect(world.orders.get(order.id)).toMatchObject({
        fulfillmentStatus: 'not_fulfilled',
        untracked: 0,
      });
      const item = fakes.addItem(order.id, 2);
      const shipment = fakes.addShipment(W1, [], null);
      fakes.addShipmentItem(item, shipment, 1);
      fakes.link({ id: order.id, orderNumber: 'ON1' }, [shipment]);
      await write({ id: order.id } as Order, 'put', {});
      expect(world.orders.get(order.id)).toMatchObject({
        fulfillmentStatus: 'partial',
        untracked: 1,
      });
    });
  });

  describe('deletion', () => {
    it('unlinks its shipments, removes its notes, and tells what it deleted', async () => {
      const order = newOrder();
      const linked = fakes.addShipment(W1, ['ON1']);
      await write(order, 'post');
      const item = fakes.addItem(order.id, 3);
      const carrier = fakes.addShipment(W1, []);
      fakes.addShipmentItem(item, carrier, 1);

      const { ctx } = await write({ id: order.id } as Order, 'delete');
      expect(ctx.state.before).toEqual(expect.objectContaining({ workspaceId: W1 }));
      expect(world.orders.has(order.id)).toBe(false);
      // Its items (and their shipment items) go with it.
      expect(world.items).toEqual([]);
      expect(world.shipmentItems).toEqual([]);
      expect(world.shipments.get(linked)!.orderNumbers).toEqual([]);
      expect(fakes.linkedTo(order.id)).toEqual([]);
      // The carrier only carried items: it is not unlinked, but it changed (its items).
      expect(links.unlinkShipmentsFromOrder).toHaveBeenLastCalledWith(
        em,
        { id: order.id, orderNumber: 'ON1' },
        [linked],
      );
      expect(world.watchedShipments.at(-1)!.sort()).toEqual([linked, carrier].sort());
      expect(world.notesRemoved).toEqual([{ workspaceId: W1, entity: 'orders', ids: [order.id] }]);
      expect(world.events).toContainEqual(['order.deleted', order.id]);
    });
  });
});
