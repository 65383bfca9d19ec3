import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { RecordChangeEvents } from '../events/record-change-events';
import type { WriteContext } from '../hydra/core/resource-hooks';
import type { OrderItemStore } from '../order-items/order-item-store';
import type { OrderStore } from '../orders/order-store';
import type { ShipmentItemStore } from '../shipment-items/shipment-item-store';
import type { StatusStore } from '../statuses/status-store';
import type { WorkflowStore } from '../workflows/workflow-store';
import { FakeRecords, type World, newWorld } from '../../test/fakes/order-records';
import { linkedOrders, replaceShipmentLinks } from './shipment-orders';
import type { ShipmentEvents } from './shipment-events';
import { DUPLICATE_TRACKING_NUMBER, type Shipment } from './shipment.entity';
import type { DependentInsert, ShipmentCreation, ShipmentStore } from './shipment-store';
import {
  ShipmentWriteExtensions,
  type ShipmentWriteEvent,
  type ShipmentWriteExtension,
} from './shipment-write-extensions';
import { ShipmentWriter } from './shipment-writer';
import { ShipmentsService, type ShipmentWrite } from './shipments.service';

jest.mock('../notes/record-notes', () => ({
  removeNotesOf: jest.fn(() => Promise.resolve(0)),
  removeNotesOfDeleted: jest.fn(() => Promise.resolve()),
}));
jest.mock('../events/indirect-changes', () => ({
  announcedByCaller: (em: unknown, _aggregates: unknown, work: (em: unknown) => unknown) =>
    work(em),
}));
jest.mock('./shipment-orders', () => ({
  ...jest.requireActual('./shipment-orders'),
  linkedOrders: jest.fn(),
  replaceShipmentLinks: jest.fn(),
}));

const W1 = '10000000-0000-4000-8000-000000000001';
const W2 = '10000000-0000-4000-8000-000000000002';
const TEAM = '20000000-0000-4000-8000-000000000001';
const UPS_NUMBER = '1Z999AA10123456784';
const principal: Principal = {
  userId: 'u',
  email: 'u@x.test',
  teamIds: [TEAM],
  adminTeamIds: [],
  workspaceIds: [W1, W2],
};

/** The shipment rows the fake ShipmentStore holds, beside World's (which has no carrier). */
interface Row {
  workspaceId: string;
  trackingNumber: string | null;
  originCarrier: string | null;
  orderNumbers: string[];
  columns: Record<string, unknown>;
}

describe('ShipmentsService', () => {
  let world: World;
  let fakes: FakeRecords;
  let rows: Map<string, Row>;
  let events: Array<[string, string, unknown?]>;
  let workflows: Map<string, string>;
  let creationColumns: Array<readonly string[]>;
  let extensionEvents: ShipmentWriteEvent[];
  let extensions: ShipmentWriteExtension[];
  const em = {} as EntityManager;

  function service(): ShipmentsService {
    const shipmentEvents = {
      snapshot: (_em: unknown, id: string) => Promise.resolve({ id, before: true }),
      created: (_em: unknown, id: string, outbox: unknown[], inserted: unknown) => {
        events.push(['shipment.created', id, { outbox, inserted }]);
        return Promise.resolve({ '@id': `/shipments/${id}` });
      },
      updated: (_em: unknown, id: string, before: unknown) => {
        events.push(['shipment.updated', id, before]);
        return Promise.resolve();
      },
      deleted: (_em: unknown, id: string) => {
        events.push(['shipment.deleted', id]);
        return Promise.resolve();
      },
      newShipmentRead: () => ({ select: '', from: '' }),
      toSnapshot: (row: { id: string }) => ({ inserted: row.id }),
    };
    const store = {
      creation: (
        _em: unknown,
        workspaceId: string,
        trackingNumber: string | null,
        columns: readonly string[],
      ): Promise<ShipmentCreation | null> => {
        creationColumns.push(columns);
        if (!world.workspaceTeams.has(workspaceId)) return Promise.resolve(null);
        return Promise.resolve({
          now: new Date('2026-01-01T00:00:00Z'),
          teamId: world.workspaceTeams.get(workspaceId)!,
          taken: trackingNumber !== null && numberUsed(workspaceId, trackingNumber, null),
          row: { probe: 'read with the create' },
        });
      },
      numberTaken: (_em: unknown, workspaceId: string, number: string, exceptId: string | null) =>
        Promise.resolve(numberUsed(workspaceId, number, exceptId)),
      stored: (_em: unknown, id: string) => {
        const row = rows.get(id)!;
        return Promise.resolve({
          workspace_id: row.workspaceId,
          tracking_number: row.trackingNumber,
          origin_carrier: row.originCarrier,
          order_numbers: row.orderNumbers,
        });
      },
      workspaceOf: (_em: unknown, id: string) => Promise.resolve(rows.get(id)!.workspaceId),
      insert: (
        _em: unknown,
        shipment: Shipment,
        columns: Record<string, unknown>,
        dependents: readonly (DependentInsert | null | undefined)[] = [],
      ) => {
        save(shipment, columns);
        // The links a new shipment's INSERT writes (newShipmentLinks).
        for (const d of dependents)
          if (d?.sql('$1').includes('INSERT INTO shipment_order'))
            for (const orderId of d.param as string[])
              world.links.push({ shipmentId: shipment.id, orderId });
        return Promise.resolve({ id: shipment.id });
      },
      remove: (_em: unknown, id: string) => {
        rows.delete(id);
        world.shipments.delete(id);
        world.links = world.links.filter((l) => l.shipmentId !== id);
        world.shipmentItems = world.shipmentItems.filter((si) => si.shipmentId !== id);
        return Promise.resolve();
      },
    };
    const registry = ShipmentWriteExtensions.of(extensions);
    const changes = fakes.changes as unknown as RecordChangeEvents;
    const writer = new ShipmentWriter(
      shipmentEvents as unknown as ShipmentEvents,
      store as unknown as ShipmentStore,
      changes,
      registry,
      fakes.orders as unknown as OrderStore,
      fakes.orderItems as unknown as OrderItemStore,
      fakes.shipmentItems as unknown as ShipmentItemStore,
    );
    return new ShipmentsService(
      shipmentEvents as unknown as ShipmentEvents,
      store as unknown as ShipmentStore,
      changes,
      registry,
      writer,
      fakes.orders as unknown as OrderStore,
      fakes.shipmentItems as unknown as ShipmentItemStore,
      {
        workspacesOf: (_em: unknown, ids: readonly string[]) =>
          Promise.resolve(
            new Map(ids.filter((id) => workflows.has(id)).map((id) => [id, workflows.get(id)!])),
          ),
      } as unknown as WorkflowStore,
      fakes.statuses as unknown as StatusStore,
    );
  }

  function numberUsed(workspaceId: string, number: string, exceptId: string | null): boolean {
    return [...rows.entries()].some(
      ([id, r]) => id !== exceptId && r.workspaceId === workspaceId && r.trackingNumber === number,
    );
  }

  function save(shipment: Shipment, columns: Record<string, unknown> = {}): void {
    const workspaceId = rows.get(shipment.id)?.workspaceId ?? shipment.workspace.id;
    rows.set(shipment.id, {
      workspaceId,
      trackingNumber: shipment.trackingNumber,
      originCarrier: shipment.originCarrier,
      orderNumbers: shipment.orderNumbers,
      columns,
    });
    world.shipments.set(shipment.id, {
      workspaceId,
      orderNumbers: shipment.orderNumbers,
      trackingNumber: shipment.trackingNumber,
    });
  }

  beforeEach(() => {
    world = newWorld();
    world.workspaceTeams.set(W1, TEAM).set(W2, TEAM);
    fakes = new FakeRecords(world);
    rows = new Map();
    events = [];
    workflows = new Map();
    creationColumns = [];
    extensionEvents = [];
    extensions = [{ afterWrite: (event) => void extensionEvents.push(event) }];
    em.save = jest.fn((shipment: Shipment) => {
      save(shipment);
      return Promise.resolve(shipment);
    }) as never;
    jest
      .mocked(linkedOrders)
      .mockImplementation((_em, shipmentId) =>
        Promise.resolve(
          world.links
            .filter((l) => l.shipmentId === shipmentId)
            .map((l) => ({ id: l.orderId, orderNumber: world.orders.get(l.orderId)!.orderNumber })),
        ),
      );
    jest.mocked(replaceShipmentLinks).mockImplementation((_em, shipmentId, orderIds) => {
      world.links = world.links.filter((l) => l.shipmentId !== shipmentId);
      world.links.push(...orderIds.map((orderId) => ({ shipmentId, orderId })));
      return Promise.resolve();
    });
  });

  function newShipment(fields: Partial<Shipment> = {}): Shipment {
    return {
      workspace: { id: W1 },
      trackingNumber: null,
      originCarrier: null,
      orderNumbers: [],
      ...fields,
    } as Shipment;
  }

  /** A stored shipment as a PUT loads it, with the body's fields applied after `begin`. */
  async function put(
    id: string,
    body: Partial<Shipment> & Record<string, unknown>,
    nested: WriteContext['nested'] = {},
  ) {
    const row = rows.get(id)!;
    const shipment = {
      id,
      workspace: { id: row.workspaceId },
      trackingNumber: row.trackingNumber,
      originCarrier: row.originCarrier,
      orderNumbers: [...row.orderNumbers],
    } as Shipment;
    return write(shipment, 'put', body, nested, () => Object.assign(shipment, body));
  }

  async function write(
    shipment: Shipment,
    operation: 'post' | 'put' | 'delete',
    body: Record<string, unknown> = {},
    nested: WriteContext['nested'] = {},
    applyBody: () => void = () => undefined,
  ) {
    const hooks = service();
    const base = { principal, operation, resource: {} as never, em, body, nested };
    const state = await hooks.begin(shipment, { ...base, state: undefined });
    const ctx: WriteContext<ShipmentWrite> = { ...base, state };
    if (operation === 'delete') {
      await hooks.remove(shipment, ctx);
      return { shipment, ctx, hooks, violations: [] };
    }
    applyBody();
    await hooks.prepare(shipment, ctx);
    const violations = await hooks.validate(shipment, ctx);
    if (violations.length === 0) {
      await hooks.persist(shipment, ctx);
      await hooks.afterWrite(shipment, ctx);
    }
    return { shipment, ctx, hooks, violations };
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

  describe('input', () => {
    it('trims the tracking number, drops blank texts and repeated order numbers', async () => {
      const { shipment } = await write(
        newShipment({
          trackingNumber: `  ${UPS_NUMBER} `,
          email: ' ',
          phoneNumber: '',
          orderNumbers: [' A1', 'A1 ', ''],
        }),
        'post',
        { orderNumbers: [' A1', 'A1 ', ''] },
      );
      expect(shipment).toMatchObject({
        trackingNumber: UPS_NUMBER,
        email: null,
        phoneNumber: null,
        orderNumbers: ['A1'],
      });
    });
  });

  describe('tracking numbers', () => {
    it('are unique per workspace', async () => {
      await write(newShipment({ trackingNumber: UPS_NUMBER }), 'post');
      const { violations } = await write(newShipment({ trackingNumber: UPS_NUMBER }), 'post');
      expect(violations).toEqual([
        {
          propertyPath: 'trackingNumber',
          message: DUPLICATE_TRACKING_NUMBER,
          code: ViolationCodes.unique,
        },
      ]);
      expect(rows.size).toBe(1);
      const other = await write(
        newShipment({ workspace: { id: W2 } as never, trackingNumber: UPS_NUMBER }),
        'post',
      );
      expect(other.violations).toEqual([]);
    });

    it('may stay the same on a PUT, but not take another shipment of the workspace', async () => {
      const { shipment: first } = await write(newShipment({ trackingNumber: UPS_NUMBER }), 'post');
      const { shipment: second } = await write(
        newShipment({ trackingNumber: 'ZZ12345', originCarrier: 'dhl' }),
        'post',
      );
      expect((await put(first.id, { trackingNumber: UPS_NUMBER })).violations).toEqual([]);
      const { violations } = await put(second.id, { trackingNumber: UPS_NUMBER });
      expect(violations).toEqual([expect.objectContaining({ propertyPath: 'trackingNumber' })]);
    });

    it('refuses a create whose workspace is gone as a missing reference', async () => {
      world.workspaceTeams.delete(W1);
      const { violations } = await write(newShipment(), 'post', { workspace: `/workspaces/${W1}` });
      expect(violations).toEqual([
        {
          propertyPath: 'workspace',
          message: `Item not found for "/workspaces/${W1}".`,
          code: null,
        },
      ]);
      expect(rows.size).toBe(0);
    });
  });

  describe('origin carrier', () => {
    it('is identified from the number when not given', async () => {
      const { shipment } = await write(newShipment({ trackingNumber: UPS_NUMBER }), 'post');
      expect(shipment.originCarrier).toBe('ups');
    });

    it('refuses an unknown carrier, writing nothing', async () => {
      const error = await rejection(
        write(newShipment({ trackingNumber: UPS_NUMBER, originCarrier: 'nope' }), 'post'),
      );
      expect((error as ValidationError).violations).toEqual([
        expect.objectContaining({ propertyPath: 'originCarrier' }),
      ]);
      expect(rows.size).toBe(0);
    });

    it('is kept while the number stays, and identified again for a new number', async () => {
      const { shipment } = await write(
        newShipment({ trackingNumber: 'ZZ12345', originCarrier: 'dhl' }),
        'post',
      );
      expect(rows.get(shipment.id)!.originCarrier).toBe('dhl');
      await put(shipment.id, { trackingNumber: 'ZZ12345', originCarrier: 'fedex' });
      expect(rows.get(shipment.id)!.originCarrier).toBe('dhl');
      await put(shipment.id, { trackingNumber: UPS_NUMBER });
      expect(rows.get(shipment.id)!.originCarrier).toBe('ups');
    });
  });

  describe('references', () => {
    it('finds or creates an embedded status, and refuses a status of another workspace', async () => {
      const { shipment } = await write(
        newShipment(),
        'post',
        {},
        { shipmentStatus: { code: ' x ' } },
      );
      expect(world.statuses).toEqual([expect.objectContaining({ workspaceId: W1, code: 'x' })]);
      expect(shipment.shipmentStatus).toEqual({ id: world.statuses[0].id });
      const foreign = fakes.addStatus(W2, 'shipments', 'y');
      const { violations } = await write(
        newShipment({ shipmentStatus: { id: foreign } as never }),
        'post',
        { shipmentStatus: `/statuses/${foreign}` },
      );
      expect(violations).toEqual([expect.objectContaining({ propertyPath: 'shipmentStatus' })]);
    });

    it('refuses orders, items and workflows of elsewhere', async () => {
      const order = fakes.addOrder({ workspaceId: W2, orderNumber: 'B1' });
      const otherShipment = fakes.addShipment(W1, []);
      const item = fakes.addShipmentItem(fakes.addItem(order, 1), otherShipment, 1);
      workflows.set('wf', W2);
      const { violations } = await write(
        newShipment({
          orders: [{ id: order }] as never,
          shipmentItems: [{ id: item }] as never,
          fulfillmentIntegration: { id: 'wf' } as never,
        }),
        'post',
        { orders: [], shipmentItems: [] },
      );
      expect(violations.map((v) => v.propertyPath)).toEqual([
        'fulfillmentIntegration',
        'orders[0]',
        'shipmentItems[0]',
      ]);
      expect(rows.size).toBe(0);
    });
  });

  describe('extensions', () => {
    it("ask their creation checks with the create's first statement, the first refusal deciding", async () => {
      const asked: string[] = [];
      extensions.push(
        {
          creationCheck: {
            column: 'a AS a',
            violations: (row) => {
              asked.push(`a:${String(row.probe)}`);
              return [];
            },
          },
        },
        {
          creationCheck: {
            column: 'b AS b',
            violations: () => {
              asked.push('b');
              return [{ propertyPath: 'workspace', message: 'plan', code: 'limit' }];
            },
          },
        },
      );
      const { violations } = await write(newShipment(), 'post');
      expect(creationColumns).toEqual([['a AS a', 'b AS b']]);
      expect(asked).toEqual(['a:read with the create', 'b']);
      expect(violations).toEqual([{ propertyPath: 'workspace', message: 'plan', code: 'limit' }]);
      expect(rows.size).toBe(0);
    });

    it('decide the tracking of a new shipment, inserted with the row and its event', async () => {
      const tracked: unknown[] = [];
      const statusEvent = { type: 'shipment.status_changed' } as never;
      extensions.push({
        trackNew: (shipment) => {
          tracked.push(shipment);
          return Promise.resolve({
            columns: { tracking_status: 'pending' },
            events: [statusEvent],
          });
        },
      });
      const { shipment, ctx, hooks } = await write(
        newShipment({ trackingNumber: UPS_NUMBER }),
        'post',
      );
      expect(tracked).toEqual([
        expect.objectContaining({ id: shipment.id, teamId: TEAM, trackingNumber: UPS_NUMBER }),
      ]);
      expect(rows.get(shipment.id)!.columns).toEqual({ tracking_status: 'pending' });
      expect(events).toEqual([
        [
          'shipment.created',
          shipment.id,
          { outbox: [statusEvent], inserted: { inserted: shipment.id } },
        ],
      ]);
      expect(hooks.written(shipment, ctx.state)).toEqual({ '@id': `/shipments/${shipment.id}` });
    });

    it('hear of every write in its transaction, with whether the number changed', async () => {
      const { shipment } = await write(newShipment(), 'post');
      await put(shipment.id, { trackingNumber: UPS_NUMBER });
      await put(shipment.id, { trackingNumber: UPS_NUMBER, email: 'a@b.test' });
      expect(
        extensionEvents.map((e) => [
          e.operation,
          e.trackingNumberChanged,
          e.previousTrackingNumber,
        ]),
      ).toEqual([
        ['post', false, null],
        ['put', true, null],
        ['put', false, UPS_NUMBER],
      ]);
      expect(events.filter(([type]) => type === 'shipment.updated')).toEqual([
        ['shipment.updated', shipment.id, { id: shipment.id, before: true }],
        ['shipment.updated', shipment.id, { id: shipment.id, before: true }],
      ]);
    });

    it('are refused at start-up when two decide the same thing', () => {
      const trackNew = () => Promise.resolve({ columns: {}, events: [] });
      expect(() => ShipmentWriteExtensions.of([{ trackNew }, { trackNew }])).toThrow(/trackNew/);
    });
  });

  describe('orders', () => {
    it("links the workspace's orders carrying its numbers, telling them", async () => {
      const mine = fakes.addOrder({ workspaceId: W1, orderNumber: 'A1' });
      fakes.addOrder({ workspaceId: W2, orderNumber: 'A1' });
      const { shipment } = await write(newShipment({ orderNumbers: ['A1'] }), 'post', {
        orderNumbers: ['A1'],
      });
      expect(world.links).toEqual([{ shipmentId: shipment.id, orderId: mine }]);
      expect(world.refreshed).toEqual([[mine]]);
      expect(world.events).toEqual([['order.updated(indirect)', mine]]);
    });

    it('deletes with its notes and events, refreshing the orders it counted in', async () => {
      const order = fakes.addOrder({ workspaceId: W1, orderNumber: 'A1' });
      const { shipment } = await write(newShipment({ orderNumbers: ['A1'] }), 'post', {
        orderNumbers: ['A1'],
      });
      world.events = [];
      world.refreshed = [];
      await write({ id: shipment.id } as Shipment, 'delete');
      expect(rows.has(shipment.id)).toBe(false);
      expect(world.refreshed).toEqual([[order]]);
      expect(events.at(-1)).toEqual(['shipment.deleted', shipment.id]);
      expect(world.events).toEqual([['order.updated(indirect)', order]]);
    });
  });
});
