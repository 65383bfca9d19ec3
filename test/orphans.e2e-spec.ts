import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { FileStorage } from '../src/media/file-storage';
import { MediaService } from '../src/media/media.service';
import { NotesService } from '../src/notes/notes.service';
import { RetentionSweeper } from '../src/retention/retention-sweeper';
import { CASCADED_RECORDS, type CascadedRecords } from '../src/notes/record-notes';
import {
  createOrder,
  createOrderItem,
  createShipment,
  createShipmentItem,
  testTrackingNumber,
} from './factories/commerce.factory';
import { joinTeam } from './factories/identity.factory';
import { PNG, uniqueSubdomain, upload } from './factories/media.factory';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

/** A note with a file and a reminder, and where to look for each of them. */
interface NoteParts {
  noteId: string;
  attachmentId: string;
  reminderId: string;
  mediaId: string;
  storageKey: string;
}

async function countById(db: DataSource, table: string, id: string): Promise<number> {
  return (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE id = $1`, [id]))[0].n;
}

/** Runs the media file sweeper (the periodic job that removes files after commit) dry. */
async function sweepFiles(app: NestExpressApplication): Promise<void> {
  while ((await app.get(MediaService).sweepOrphanFiles()) > 0);
}

/** A note on the record with an uploaded file and a reminder, all through the API. */
async function noteWithFileAndReminder(
  ctx: { app: NestExpressApplication; db: DataSource; storage: FileStorage; t: Tenant },
  entity: string,
  entityId: string,
): Promise<NoteParts> {
  const { app, db, storage, t } = ctx;
  const note = await api(app, { token: t.token })
    .post('/notes', {
      workspace: `/workspaces/${t.workspaceId}`,
      entity,
      entityId,
      comment: `about ${entity}`,
    })
    .expect(201);
  const attachment = await request(app.getHttpServer())
    .post(`/notes/${note.body.id}/attachments`)
    .set('Authorization', `Bearer ${t.token}`)
    .set('Accept', 'application/ld+json')
    .attach('file', PNG, 'proof.png')
    .expect(201);
  const reminder = await api(app, { token: t.token })
    .post('/note_reminders', {
      note: note.body['@id'],
      remindAt: new Date(Date.now() + 3600_000).toISOString(),
    })
    .expect(201);
  const [media] = await db.query(
    `SELECT m.id, m.storage_key FROM note_attachment na JOIN media m ON m.id = na.media_id
      WHERE na.id = $1`,
    [attachment.body.id],
  );
  expect(await storage.open(media.storage_key)).not.toBeNull();
  return {
    noteId: note.body.id,
    attachmentId: attachment.body.id,
    reminderId: reminder.body.id,
    mediaId: media.id,
    storageKey: media.storage_key,
  };
}

/**
 * What a deleted order or shipment leaves behind: its notes (with their attachments, files
 * and reminders) go on every delete path, and shipments drop the number of a deleted order.
 */
describe('records deleted with what hangs on them', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let storage: FileStorage;
  let t: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    storage = app.get(FileStorage);
  });
  afterAll(() => closeTestApp(app));
  beforeEach(async () => {
    t = await createTenant(app);
  });

  const http = () => api(app, { token: t.token });
  const count = (table: string, id: string) => countById(db, table, id);
  const sweep = () => sweepFiles(app);
  const noteOn = (entity: string, entityId: string) =>
    noteWithFileAndReminder({ app, db, storage, t }, entity, entityId);

  const expectGone = async (parts: NoteParts) => {
    await http().get(`/notes/${parts.noteId}`).expect(404);
    expect(await count('note', parts.noteId)).toBe(0);
    expect(await count('note_attachment', parts.attachmentId)).toBe(0);
    expect(await count('note_reminder', parts.reminderId)).toBe(0);
    expect(await count('media', parts.mediaId)).toBe(0);
    await sweep();
    expect(await storage.open(parts.storageKey)).toBeNull();
  };

  const expectKept = async (parts: NoteParts) => {
    await http().get(`/notes/${parts.noteId}`).expect(200);
    await http().get(`/note_attachments/${parts.attachmentId}`).expect(200);
    await http().get(`/note_reminders/${parts.reminderId}`).expect(200);
    await http().get(`/media/${parts.mediaId}`).expect(200);
    await sweep();
    expect(await storage.open(parts.storageKey)).not.toBeNull();
  };

  describe('notes', () => {
    it('go with their order on DELETE /orders/{id}; other records keep theirs', async () => {
      const order = await createOrder(app, t);
      const other = await createOrder(app, t);
      const shipment = await createShipment(app, t);
      const doomed = await noteOn('orders', order.id);
      const second = await noteOn('orders', order.id);
      const onOther = await noteOn('orders', other.id);
      const onShipment = await noteOn('shipments', shipment.id);

      await http().delete(order['@id']).expect(204);

      await expectGone(doomed);
      await expectGone(second);
      await expectKept(onOther);
      await expectKept(onShipment);
    });

    it('go with their shipment on DELETE /shipments/{id}; other records keep theirs', async () => {
      const shipment = await createShipment(app, t);
      const other = await createShipment(app, t);
      const order = await createOrder(app, t);
      const doomed = await noteOn('shipments', shipment.id);
      const onOther = await noteOn('shipments', other.id);
      const onOrder = await noteOn('orders', order.id);

      await http().delete(shipment['@id']).expect(204);

      await expectGone(doomed);
      await expectKept(onOther);
      await expectKept(onOrder);
    });

    it('go with the records of delete_records_batch (orders and shipments)', async () => {
      const o1 = await createOrder(app, t);
      const o2 = await createOrder(app, t);
      const kept = await createOrder(app, t);
      const s1 = await createShipment(app, t);
      const s2 = await createShipment(app, t);
      const keptShipment = await createShipment(app, t);
      const onO1 = await noteOn('orders', o1.id);
      const onO2 = await noteOn('orders', o2.id);
      const onKept = await noteOn('orders', kept.id);
      const onS1 = await noteOn('shipments', s1.id);
      const onS2 = await noteOn('shipments', s2.id);
      const onKeptShipment = await noteOn('shipments', keptShipment.id);

      await http()
        .post('/delete_records_batch', { entity: 'orders', ids: [o1['@id'], o2.id] })
        .expect(200);
      await http()
        .post('/delete_records_batch', { entity: 'shipments', ids: [s1.id, s2['@id']] })
        .expect(200);

      for (const parts of [onO1, onO2, onS1, onS2]) await expectGone(parts);
      await expectKept(onKept);
      await expectKept(onKeptShipment);
    });

    it('stay on a batch that fails: nothing is deleted', async () => {
      const order = await createOrder(app, t);
      const parts = await noteOn('orders', order.id);
      const stranger = await createTenant(app);
      const foreign = await createOrder(app, stranger);
      await http()
        .post('/delete_records_batch', { entity: 'orders', ids: [order.id, foreign.id] })
        .expect(404);
      await http().get(order['@id']).expect(200);
      await expectKept(parts);
    });

    it('keep a file that something else still uses (another note, the workspace logo)', async () => {
      const o1 = await createOrder(app, t);
      const o2 = await createOrder(app, t);
      const o3 = await createOrder(app, t);
      const shared = await upload(app, t.token, PNG, 'shared.png').expect(201);
      const logo = await upload(app, t.token, PNG, 'logo.png').expect(201);
      const noteWith = async (orderId: string, media: string) =>
        (
          await http()
            .post('/notes', {
              workspace: `/workspaces/${t.workspaceId}`,
              entity: 'orders',
              entityId: orderId,
              attachment: media,
            })
            .expect(201)
        ).body;
      const first = await noteWith(o1.id, shared.body['@id']);
      const second = await noteWith(o2.id, shared.body['@id']);
      await db.query(`UPDATE workspace SET logo_id = $2 WHERE id = $1`, [
        t.workspaceId,
        logo.body.id,
      ]);
      await noteWith(o3.id, logo.body['@id']);

      await http()
        .post('/delete_records_batch', { entity: 'orders', ids: [o1.id, o3.id] })
        .expect(200);

      await http().get(first['@id']).expect(404);
      const after = (await http().get(second['@id']).expect(200)).body;
      expect(after.attachment).toMatchObject({ id: shared.body.id });
      const files = (await http().get(`${second['@id']}/attachments`).expect(200)).body;
      expect(files['hydra:totalItems']).toBe(1);
      const [{ logo_id }] = await db.query(`SELECT logo_id FROM workspace WHERE id = $1`, [
        t.workspaceId,
      ]);
      expect(logo_id).toBe(logo.body.id);
      await sweep();
      await request(app.getHttpServer()).get(shared.body.filePath).expect(200);
      await request(app.getHttpServer()).get(logo.body.filePath).expect(200);
    });

    it('move to the target of a merge instead of going with the duplicate', async () => {
      const target = await createShipment(app, t);
      const duplicate = await createShipment(app, t);
      const parts = await noteOn('shipments', duplicate.id);
      await http()
        .post('/shipments/merge', { target: target['@id'], shipments: [duplicate['@id']] })
        .expect(200);
      await http().get(duplicate['@id']).expect(404);
      await expectKept(parts);
      const moved = (await http().get(`/notes/${parts.noteId}`).expect(200)).body;
      expect(moved.entityId).toBe(target.id);
    });
  });

  describe('orderNumbers of shipments', () => {
    const shipmentRow = async (id: string) =>
      (await db.query(`SELECT order_numbers, updated_at FROM shipment WHERE id = $1`, [id]))[0] as {
        order_numbers: string[];
        updated_at: Date;
      };

    it('lose the number of a deleted order, keep the others, and get a new updatedAt', async () => {
      const a = await createOrder(app, t);
      const b = await createOrder(app, t);
      const onlyA = await createShipment(app, t, { orderNumbers: [a.orderNumber, 'LOOSE-1'] });
      const both = await createShipment(app, t, { orderNumbers: [b.orderNumber, a.orderNumber] });
      const onlyB = await createShipment(app, t, { orderNumbers: [b.orderNumber] });
      expect(onlyA.orders).toEqual([a['@id']]);
      const before = {
        onlyA: await shipmentRow(onlyA.id),
        both: await shipmentRow(both.id),
        onlyB: await shipmentRow(onlyB.id),
      };

      await http().delete(a['@id']).expect(204);

      const afterOnlyA = (await http().get(onlyA['@id']).expect(200)).body;
      expect(afterOnlyA.orderNumbers).toEqual(['LOOSE-1']);
      expect(afterOnlyA.orders).toEqual([]);
      const afterBoth = (await http().get(both['@id']).expect(200)).body;
      expect(afterBoth.orderNumbers).toEqual([b.orderNumber]);
      expect(afterBoth.orders).toEqual([b['@id']]);
      expect((await shipmentRow(onlyA.id)).updated_at.getTime()).toBeGreaterThan(
        before.onlyA.updated_at.getTime(),
      );
      expect((await shipmentRow(both.id)).updated_at.getTime()).toBeGreaterThan(
        before.both.updated_at.getTime(),
      );
      // A shipment of another order is not touched at all.
      expect(await shipmentRow(onlyB.id)).toEqual(before.onlyB);
      // Filtering by the old number no longer finds them.
      const found = (await http().get(`/shipments?orderNumbers=${a.orderNumber}`).expect(200)).body;
      expect(found['hydra:totalItems']).toBe(0);
      // A new order with the freed number is not linked to the shipments that dropped it.
      const reborn = await createOrder(app, t, { orderNumber: a.orderNumber });
      expect(reborn.shipments).toEqual([]);
    });

    it('lose the numbers of orders deleted by delete_records_batch', async () => {
      const a = await createOrder(app, t);
      const b = await createOrder(app, t);
      const c = await createOrder(app, t);
      const shipment = await createShipment(app, t, {
        orderNumbers: [a.orderNumber, b.orderNumber, c.orderNumber],
      });
      await http()
        .post('/delete_records_batch', { entity: 'orders', ids: [a.id, c['@id']] })
        .expect(200);
      const after = (await http().get(shipment['@id']).expect(200)).body;
      expect(after.orderNumbers).toEqual([b.orderNumber]);
      expect(after.orders).toEqual([b['@id']]);
    });

    it('of another workspace keep the same number, which is another order’s', async () => {
      // Numbers are unique per workspace and shipments link orders of their own workspace
      // only, so no other linked order can carry the deleted order's number; the same
      // number on a shipment of another workspace is another order's.
      const a = await createOrder(app, t);
      const stranger = await createTenant(app);
      const theirs = await createOrder(app, stranger, { orderNumber: a.orderNumber });
      const theirShipment = await createShipment(app, stranger, {
        orderNumbers: [a.orderNumber],
      });
      const ours = await createShipment(app, t, { orderNumbers: [a.orderNumber] });
      await http().delete(a['@id']).expect(204);
      expect((await http().get(ours['@id'])).body.orderNumbers).toEqual([]);
      const untouched = (
        await api(app, { token: stranger.token }).get(theirShipment['@id']).expect(200)
      ).body;
      expect(untouched.orderNumbers).toEqual([a.orderNumber]);
      expect(untouched.orders).toEqual([theirs['@id']]);
    });

    it('get an indirect shipment.updated (cause "order") from an order deletion', async () => {
      const a = await createOrder(app, t);
      const shipment = await createShipment(app, t, { orderNumbers: [a.orderNumber] });
      await http().delete(a['@id']).expect(204);
      expect((await http().get(shipment['@id'])).body.orderNumbers).toEqual([]);
      const events: Array<{ type: string; payload: Record<string, any> }> = await db.query(
        `SELECT type, payload FROM outbox_event WHERE aggregate_id = $1 ORDER BY created_at, id`,
        [shipment.id],
      );
      const updates = events.filter((e) => e.type === 'shipment.updated');
      expect(updates).toHaveLength(1);
      expect(updates[0].payload).toMatchObject({ cause: 'order', orderNumbers: [], orders: [] });
    });

    it('keep the order number a PUT on the order tries to change (it is set on POST only)', async () => {
      const a = await createOrder(app, t);
      const shipment = await createShipment(app, t, { orderNumbers: [a.orderNumber] });
      const res = await http()
        .put(a['@id'], { orderNumber: `${a.orderNumber}-NEW`, total: '3' })
        .expect(200);
      expect(res.body.orderNumber).toBe(a.orderNumber);
      const after = (await http().get(shipment['@id'])).body;
      expect(after.orderNumbers).toEqual([a.orderNumber]);
      expect(after.orders).toEqual([a['@id']]);
    });
  });
});

/**
 * Notes on the other records notes may be about (order and shipment items, checkpoints,
 * tracking pages, workflows and their runs, widgets and their logs, e-mail notifications,
 * statuses, workspace members) go on every path that deletes the record, the database
 * cascades from a parent included; a deleted note or attachment takes its unused media.
 */
describe('notes on every record deleted, and the files of deleted notes', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let storage: FileStorage;
  let t: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    storage = app.get(FileStorage);
  });
  afterAll(() => closeTestApp(app));
  beforeEach(async () => {
    t = await createTenant(app);
  });

  const http = () => api(app, { token: t.token });
  const count = (table: string, id: string) => countById(db, table, id);
  const sweep = () => sweepFiles(app);
  const noteOn = (entity: string, entityId: string) =>
    noteWithFileAndReminder({ app, db, storage, t }, entity, entityId);

  /** A note on the record whose only file is the media given by IRI (shared with others). */
  const noteWithFile = async (entity: string, entityId: string, media: string) =>
    (
      await http()
        .post('/notes', {
          workspace: `/workspaces/${t.workspaceId}`,
          entity,
          entityId,
          attachment: media,
        })
        .expect(201)
    ).body;

  const expectGone = async (parts: NoteParts) => {
    await http().get(`/notes/${parts.noteId}`).expect(404);
    expect(await count('note', parts.noteId)).toBe(0);
    expect(await count('note_attachment', parts.attachmentId)).toBe(0);
    expect(await count('note_reminder', parts.reminderId)).toBe(0);
    expect(await count('media', parts.mediaId)).toBe(0);
    await sweep();
    expect(await storage.open(parts.storageKey)).toBeNull();
  };

  const expectKept = async (parts: NoteParts) => {
    await http().get(`/notes/${parts.noteId}`).expect(200);
    await http().get(`/note_attachments/${parts.attachmentId}`).expect(200);
    await http().get(`/note_reminders/${parts.reminderId}`).expect(200);
    await http().get(`/media/${parts.mediaId}`).expect(200);
    await sweep();
    expect(await storage.open(parts.storageKey)).not.toBeNull();
  };

  /** Two uploads in use elsewhere: one by a note on a record that stays, one as the logo. */
  const sharedFiles = async () => {
    const keeper = await createOrder(app, t);
    const shared = (await upload(app, t.token, PNG, 'shared.png').expect(201)).body;
    const logo = (await upload(app, t.token, PNG, 'logo.png').expect(201)).body;
    const keeperNote = await noteWithFile('orders', keeper.id, shared['@id']);
    await db.query(`UPDATE workspace SET logo_id = $2 WHERE id = $1`, [t.workspaceId, logo.id]);
    const expectFilesKept = async () => {
      const after = (await http().get(keeperNote['@id']).expect(200)).body;
      expect(after.attachment).toMatchObject({ id: shared.id });
      const [{ logo_id }] = await db.query(`SELECT logo_id FROM workspace WHERE id = $1`, [
        t.workspaceId,
      ]);
      expect(logo_id).toBe(logo.id);
      await http().get(`/media/${shared.id}`).expect(200);
      await http().get(`/media/${logo.id}`).expect(200);
      await sweep();
      await request(app.getHttpServer()).get(shared.filePath).expect(200);
      await request(app.getHttpServer()).get(logo.filePath).expect(200);
    };
    return { shared, logo, expectFilesKept };
  };

  /** An order with two items, each shipped (one unit) in one shipment. */
  const shippedOrder = async (shipmentBody: Record<string, unknown> = {}) => {
    const order = await createOrder(app, t);
    const first = await createOrderItem(app, t, order['@id'], { qty: 2 });
    const second = await createOrderItem(app, t, order['@id'], { qty: 2 });
    const shipment = await createShipment(app, t, shipmentBody);
    const shipItem = (orderItem: Record<string, any>) =>
      createShipmentItem(app, t, {
        shipment: shipment['@id'],
        orderItem: orderItem['@id'],
        qty: 1,
      });
    return {
      order,
      first,
      second,
      shipment,
      firstShipped: await shipItem(first),
      secondShipped: await shipItem(second),
    };
  };

  /** A shipment the sandbox carrier answers with several checkpoints. */
  const trackedShipment = async () => {
    const shipment = await createShipment(app, t, { trackingNumber: testTrackingNumber('200') });
    const rows: Array<{ id: string }> = await db.query(
      `SELECT id FROM tracking_checkpoint WHERE shipment_id = $1 ORDER BY checkpoint_date, id`,
      [shipment.id],
    );
    expect(rows.length).toBeGreaterThan(1);
    return { shipment, checkpoints: rows.map((r) => r.id) };
  };

  it('the cascades removeNotesOf follows are every ON DELETE CASCADE between notable tables', async () => {
    const notable = app.get(NotesService).notableEntities();
    const collectionOf = new Map([...notable].map(([name, r]) => [r.table, name]));
    const rows: Array<{ child: string; col: string; parent: string }> = await db.query(
      `SELECT c.conrelid::regclass::text AS child, a.attname AS col,
              c.confrelid::regclass::text AS parent
         FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        WHERE c.contype = 'f' AND c.confdeltype = 'c' AND array_length(c.conkey, 1) = 1`,
    );
    const sorted = (list: readonly CascadedRecords[]) =>
      [...list].sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
    const catalogue: Record<string, CascadedRecords[]> = {};
    for (const r of rows) {
      const table = r.child.replace(/^"|"$/g, '');
      const parent = collectionOf.get(r.parent.replace(/^"|"$/g, ''));
      const child = collectionOf.get(table);
      if (parent && child) (catalogue[parent] ??= []).push({ entity: child, table, column: r.col });
    }
    expect(Object.keys(catalogue).length).toBeGreaterThan(0);
    expect(Object.fromEntries(Object.entries(catalogue).map(([k, v]) => [k, sorted(v)]))).toEqual(
      Object.fromEntries(Object.entries(CASCADED_RECORDS).map(([k, v]) => [k, sorted(v)])),
    );
  });

  describe('order and shipment items', () => {
    it('DELETE /order_items/{id} takes the notes on the item and on its shipment items', async () => {
      const o = await shippedOrder();
      const onFirst = await noteOn('order_items', o.first.id);
      const onFirstShipped = await noteOn('shipment_items', o.firstShipped.id);
      const onSecond = await noteOn('order_items', o.second.id);
      const onSecondShipped = await noteOn('shipment_items', o.secondShipped.id);
      const onOrder = await noteOn('orders', o.order.id);
      const onShipment = await noteOn('shipments', o.shipment.id);

      await http().delete(o.first['@id']).expect(204);

      await http().get(o.firstShipped['@id']).expect(404);
      await expectGone(onFirst);
      await expectGone(onFirstShipped);
      for (const kept of [onSecond, onSecondShipped, onOrder, onShipment]) await expectKept(kept);
    });

    it('DELETE /shipment_items/{id} takes the notes on that item only', async () => {
      const o = await shippedOrder();
      const doomed = await noteOn('shipment_items', o.firstShipped.id);
      const onSibling = await noteOn('shipment_items', o.secondShipped.id);
      const onOrderItem = await noteOn('order_items', o.first.id);
      const onShipment = await noteOn('shipments', o.shipment.id);

      await http().delete(o.firstShipped['@id']).expect(204);

      await expectGone(doomed);
      for (const kept of [onSibling, onOrderItem, onShipment]) await expectKept(kept);
    });

    it('DELETE /orders/{id} takes the notes on its items and their shipment items', async () => {
      const o = await shippedOrder();
      const other = await shippedOrder();
      const gone = [
        await noteOn('order_items', o.first.id),
        await noteOn('order_items', o.second.id),
        await noteOn('shipment_items', o.firstShipped.id),
        await noteOn('shipment_items', o.secondShipped.id),
      ];
      const kept = [
        await noteOn('shipments', o.shipment.id),
        await noteOn('order_items', other.first.id),
        await noteOn('shipment_items', other.firstShipped.id),
      ];

      await http().delete(o.order['@id']).expect(204);

      await http().get(o.shipment['@id']).expect(200);
      for (const parts of gone) await expectGone(parts);
      for (const parts of kept) await expectKept(parts);
    });

    it('DELETE /shipments/{id} takes the notes on its items and its checkpoints', async () => {
      const tracked = await trackedShipment();
      const o = await shippedOrder({ trackingNumber: testTrackingNumber('200') });
      const [checkpoint] = (
        await db.query(`SELECT id FROM tracking_checkpoint WHERE shipment_id = $1 LIMIT 1`, [
          o.shipment.id,
        ])
      ).map((r: { id: string }) => r.id);
      const gone = [
        await noteOn('shipment_items', o.firstShipped.id),
        await noteOn('shipment_items', o.secondShipped.id),
        await noteOn('tracking_checkpoints', checkpoint),
      ];
      const kept = [
        await noteOn('order_items', o.first.id),
        await noteOn('orders', o.order.id),
        await noteOn('tracking_checkpoints', tracked.checkpoints[0]),
      ];

      await http().delete(o.shipment['@id']).expect(204);

      for (const parts of gone) await expectGone(parts);
      for (const parts of kept) await expectKept(parts);
    });

    it('delete_records_batch of order items and of shipment items takes their notes', async () => {
      const a = await shippedOrder();
      const b = await shippedOrder();
      const onItem = await noteOn('order_items', a.first.id);
      const onItsShipped = await noteOn('shipment_items', a.firstShipped.id);
      const onShipped = await noteOn('shipment_items', b.secondShipped.id);
      const kept = [
        await noteOn('order_items', a.second.id),
        await noteOn('shipment_items', a.secondShipped.id),
        await noteOn('shipment_items', b.firstShipped.id),
      ];

      await http()
        .post('/delete_records_batch', { entity: 'order_items', ids: [a.first['@id']] })
        .expect(200);
      await http()
        .post('/delete_records_batch', { entity: 'shipment_items', ids: [b.secondShipped.id] })
        .expect(200);

      for (const parts of [onItem, onItsShipped, onShipped]) await expectGone(parts);
      for (const parts of kept) await expectKept(parts);
    });

    it('the items a shipment PUT leaves out go with their notes', async () => {
      const o = await shippedOrder();
      const dropped = await noteOn('shipment_items', o.secondShipped.id);
      const stays = await noteOn('shipment_items', o.firstShipped.id);

      const res = await http()
        .put(o.shipment['@id'], { shipmentItems: [o.firstShipped['@id']] })
        .expect(200);

      expect(res.body.shipmentItems).toEqual([o.firstShipped['@id']]);
      await expectGone(dropped);
      await expectKept(stays);
    });

    it('a merge takes the notes on the duplicate’s checkpoints; its items move with theirs', async () => {
      const target = await trackedShipment();
      const o = await shippedOrder({ trackingNumber: testTrackingNumber('200') });
      const [checkpoint] = (
        await db.query(`SELECT id FROM tracking_checkpoint WHERE shipment_id = $1 LIMIT 1`, [
          o.shipment.id,
        ])
      ).map((r: { id: string }) => r.id);
      const onCheckpoint = await noteOn('tracking_checkpoints', checkpoint);
      const onItem = await noteOn('shipment_items', o.firstShipped.id);
      const onTargetCheckpoint = await noteOn('tracking_checkpoints', target.checkpoints[0]);

      await http()
        .post('/shipments/merge', {
          target: target.shipment['@id'],
          shipments: [o.shipment['@id']],
        })
        .expect(200);

      await expectGone(onCheckpoint);
      await expectKept(onItem);
      await expectKept(onTargetCheckpoint);
      const item = (await http().get(o.firstShipped['@id']).expect(200)).body;
      expect(item.shipment).toBe(target.shipment['@id']);
    });

    it('a new tracking number (a new journey) takes the notes on the old checkpoints', async () => {
      const tracked = await trackedShipment();
      const other = await trackedShipment();
      const onOld = [];
      for (const id of tracked.checkpoints.slice(0, 2))
        onOld.push(await noteOn('tracking_checkpoints', id));
      const onOther = await noteOn('tracking_checkpoints', other.checkpoints[0]);
      const onShipment = await noteOn('shipments', tracked.shipment.id);

      await http()
        .put(tracked.shipment['@id'], { trackingNumber: testTrackingNumber('200') })
        .expect(200);

      for (const id of tracked.checkpoints) expect(await count('tracking_checkpoint', id)).toBe(0);
      for (const parts of onOld) await expectGone(parts);
      await expectKept(onOther);
      await expectKept(onShipment);
    });

    it('notes deleted with an order keep the files another record or the logo uses', async () => {
      const files = await sharedFiles();
      const o = await shippedOrder();
      await noteWithFile('order_items', o.first.id, files.shared['@id']);
      await noteWithFile('shipment_items', o.firstShipped.id, files.logo['@id']);
      await noteWithFile('shipment_items', o.secondShipped.id, files.shared['@id']);

      await http().delete(o.order['@id']).expect(204);

      const left: Array<{ n: number }> = await db.query(
        `SELECT count(*)::int AS n FROM note WHERE workspace_id = $1 AND entity <> 'orders'`,
        [t.workspaceId],
      );
      expect(left[0].n).toBe(0);
      await files.expectFilesKept();
    });
  });

  describe('records deleted through their own route', () => {
    /** Two records of a collection; `remove` deletes the first one (and answers 204). */
    interface Case {
      entity: string;
      create: () => Promise<string>;
      remove?: (id: string) => Promise<unknown>;
      /** Records the database deletes with the record (collection, id). */
      children?: (id: string) => Promise<Array<[string, string]>>;
    }
    const post = async (path: string, body: Record<string, unknown>) =>
      (
        await http()
          .post(path, { workspace: `/workspaces/${t.workspaceId}`, ...body })
          .expect(201)
      ).body.id as string;
    const insert = async (sql: string, params: unknown[]) =>
      ((await db.query(sql, params)) as Array<{ id: string }>)[0].id;

    const cases: Case[] = [
      {
        entity: 'tracking_pages',
        create: () => post('/tracking_pages', { subdomain: uniqueSubdomain('orphans') }),
      },
      {
        entity: 'email_notifications',
        create: () =>
          post('/email_notifications', {
            event: 'shipment.delivered',
            title: 'Delivered',
            subject: 'Parcel {{ trackingNumber }} delivered',
          }),
      },
      {
        entity: 'statuses',
        create: () =>
          post('/statuses', { entity: 'shipments', code: `s-${randomUUID().slice(0, 8)}` }),
      },
      {
        entity: 'workspace_members',
        create: async () => {
          const member = await joinTeam(app, t, 'member', [t.workspaceId]);
          return insert(`SELECT id FROM workspace_member WHERE user_id = $1`, [member.userId]);
        },
      },
      {
        entity: 'workflows',
        create: () =>
          post('/workflows', { title: 'ERP', type: 'api', enabled: true, period: 'daily' }),
        children: async (id) => [
          [
            'workflow_runs',
            await insert(
              `INSERT INTO workflow_run (workspace_id, workflow_id, status) VALUES ($1, $2, 'success')
               RETURNING id`,
              [t.workspaceId, id],
            ),
          ],
        ],
      },
      {
        entity: 'widgets',
        create: () => post('/widgets', { title: 'Track', type: 'tracking_form' }),
        children: async (id) => [
          [
            'widget_logs',
            await insert(
              `INSERT INTO widget_log (widget_id, workspace_id, info) VALUES ($1, $2, 'lookup')
               RETURNING id`,
              [id, t.workspaceId],
            ),
          ],
        ],
      },
    ];

    it.each(cases)('DELETE /$entity/{id} takes the notes on it', async (c) => {
      const doomed = await c.create();
      const other = await c.create();
      const gone = [await noteOn(c.entity, doomed)];
      const kept = [await noteOn(c.entity, other)];
      for (const [entity, id] of (await c.children?.(doomed)) ?? [])
        gone.push(await noteOn(entity, id));
      for (const [entity, id] of (await c.children?.(other)) ?? [])
        kept.push(await noteOn(entity, id));

      await http().delete(`/${c.entity}/${doomed}`).expect(204);

      await http().get(`/${c.entity}/${doomed}`).expect(404);
      for (const parts of gone) await expectGone(parts);
      for (const parts of kept) await expectKept(parts);
    });

    it('workspace access ended by the team (member removed, permission revoked) takes its notes', async () => {
      const second = await addWorkspace(app, t);
      const leaving = await joinTeam(app, t, 'member', [t.workspaceId]);
      const revoked = await joinTeam(app, t, 'member', [t.workspaceId, second]);
      const membership = async (userId: string, workspaceId: string) =>
        (
          await db.query(
            `SELECT id FROM workspace_member WHERE user_id = $1 AND workspace_id = $2`,
            [userId, workspaceId],
          )
        )[0].id as string;
      const onLeaving = await noteOn(
        'workspace_members',
        await membership(leaving.userId, t.workspaceId),
      );
      const onRevoked = await noteOn(
        'workspace_members',
        await membership(revoked.userId, t.workspaceId),
      );
      // Notes are about records of their own workspace: this one is in the second.
      const secondMembership = await membership(revoked.userId, second);
      const onKept = await http()
        .post('/notes', {
          workspace: `/workspaces/${second}`,
          entity: 'workspace_members',
          entityId: secondMembership,
          comment: 'still here',
        })
        .expect(201);

      await http().delete(`/team_members/${leaving.teamMemberId}`).expect(204);
      await http()
        .post('/workspace_permissions_batch', {
          changes: [
            {
              email: revoked.email,
              permissions: [{ workspaceId: t.workspaceId, accessLevel: null }],
            },
          ],
        })
        .expect(201);

      await expectGone(onLeaving);
      await expectGone(onRevoked);
      await http().get(onKept.body['@id']).expect(200);
    });

    it('reset_defaults takes the notes on the system notifications it replaces', async () => {
      const first = await http()
        .post('/email_notifications/reset_defaults', { id: t.workspaceId })
        .expect(200);
      const systemIds = first.body.emailNotifications.map((n: { id: string }) => n.id);
      const custom = await post('/email_notifications', {
        event: 'shipment.delivered',
        title: 'Mine',
      });
      const onSystem = await noteOn('email_notifications', systemIds[0]);
      const onCustom = await noteOn('email_notifications', custom);

      await http().post('/email_notifications/reset_defaults', { id: t.workspaceId }).expect(200);

      expect(await count('email_notification', systemIds[0])).toBe(0);
      await expectGone(onSystem);
      await expectKept(onCustom);
    });

    it('notes deleted with a tracking page keep the files another record or the logo uses', async () => {
      const files = await sharedFiles();
      const page = await post('/tracking_pages', { subdomain: uniqueSubdomain('orphans') });
      const note = await noteWithFile('tracking_pages', page, files.shared['@id']);
      await request(app.getHttpServer())
        .post(`/notes/${note.id}/attachments`)
        .set('Authorization', `Bearer ${t.token}`)
        .set('Accept', 'application/ld+json')
        .send({ media: files.logo['@id'] })
        .expect(201);

      await http().delete(`/tracking_pages/${page}`).expect(204);

      await http().get(note['@id']).expect(404);
      await files.expectFilesKept();
    });
  });

  describe('DELETE /notes/{id} and DELETE /note_attachments/{id}', () => {
    it('a deleted note takes its reminders, attachments and their unused media and files', async () => {
      const order = await createOrder(app, t);
      const parts = await noteOn('orders', order.id);
      const other = await noteOn('orders', order.id);

      await http().delete(`/notes/${parts.noteId}`).expect(204);

      await expectGone(parts);
      await expectKept(other);
      await http().get(order['@id']).expect(200);
    });

    it('a deleted note keeps the files another note or the logo still uses', async () => {
      const files = await sharedFiles();
      const order = await createOrder(app, t);
      const note = await noteWithFile('orders', order.id, files.shared['@id']);
      await request(app.getHttpServer())
        .post(`/notes/${note.id}/attachments`)
        .set('Authorization', `Bearer ${t.token}`)
        .set('Accept', 'application/ld+json')
        .send({ media: files.logo['@id'] })
        .expect(201);

      await http().delete(note['@id']).expect(204);

      expect(await count('note', note.id)).toBe(0);
      await files.expectFilesKept();
    });

    it('a removed attachment takes its media and file unless something else uses them', async () => {
      const files = await sharedFiles();
      const order = await createOrder(app, t);
      const parts = await noteOn('orders', order.id);
      const sharedOnIt = (
        await request(app.getHttpServer())
          .post(`/notes/${parts.noteId}/attachments`)
          .set('Authorization', `Bearer ${t.token}`)
          .set('Accept', 'application/ld+json')
          .send({ media: files.shared['@id'] })
          .expect(201)
      ).body;
      const main = await noteWithFile('orders', order.id, files.logo['@id']);
      const [mainAttachment] = await db.query(`SELECT id FROM note_attachment WHERE note_id = $1`, [
        main.id,
      ]);

      await http().delete(`/note_attachments/${parts.attachmentId}`).expect(204);
      await http().delete(sharedOnIt['@id']).expect(204);
      await http().delete(`/note_attachments/${mainAttachment.id}`).expect(204);

      expect(await count('note_attachment', parts.attachmentId)).toBe(0);
      expect(await count('media', parts.mediaId)).toBe(0);
      await sweep();
      expect(await storage.open(parts.storageKey)).toBeNull();
      // The note itself, its reminder and its other uses stay.
      await http().get(`/notes/${parts.noteId}`).expect(200);
      await http().get(`/note_reminders/${parts.reminderId}`).expect(200);
      const mainAfter = (await http().get(main['@id']).expect(200)).body;
      expect(mainAfter.attachment).toBeNull();
      await files.expectFilesKept();
    });
  });

  describe('the retention sweep', () => {
    it('takes the notes on the workflow runs and widget logs it deletes, keeping shared files', async () => {
      const files = await sharedFiles();
      const workflow = (
        await http()
          .post('/workflows', {
            workspace: `/workspaces/${t.workspaceId}`,
            title: 'ERP',
            type: 'api',
            enabled: true,
            period: 'daily',
          })
          .expect(201)
      ).body.id as string;
      const widget = (
        await http()
          .post('/widgets', {
            workspace: `/workspaces/${t.workspaceId}`,
            title: 'Track',
            type: 'tracking_form',
          })
          .expect(201)
      ).body.id as string;
      const run = async (days: number) =>
        (
          await db.query(
            `INSERT INTO workflow_run (workspace_id, workflow_id, status, created_at)
             VALUES ($1, $2, 'success', now() - make_interval(days => $3)) RETURNING id`,
            [t.workspaceId, workflow, days],
          )
        )[0].id as string;
      const log = async (days: number) =>
        (
          await db.query(
            `INSERT INTO widget_log (widget_id, workspace_id, info, created_at)
             VALUES ($1, $2, 'lookup', now() - make_interval(days => $3)) RETURNING id`,
            [widget, t.workspaceId, days],
          )
        )[0].id as string;
      const oldRun = await run(400);
      const oldLog = await log(400);
      const gone = [await noteOn('workflow_runs', oldRun), await noteOn('widget_logs', oldLog)];
      const sharing = await noteWithFile('widget_logs', oldLog, files.shared['@id']);
      const kept = [
        await noteOn('workflow_runs', await run(1)),
        await noteOn('widget_logs', await log(1)),
        await noteOn('workflows', workflow),
        await noteOn('widgets', widget),
      ];

      const result = await app.get(RetentionSweeper).sweep({ wait: true });

      expect(result.ran).toBe(true);
      expect(await count('workflow_run', oldRun)).toBe(0);
      expect(await count('widget_log', oldLog)).toBe(0);
      expect(await count('note', sharing.id)).toBe(0);
      for (const parts of gone) await expectGone(parts);
      for (const parts of kept) await expectKept(parts);
      await files.expectFilesKept();
    });
  });

  describe('a note written while its record is deleted', () => {
    /** Waits until some statement of this database waits for a row lock. */
    const lockWait = async () => {
      for (let i = 0; i < 200; i++) {
        const [{ n }] = await db.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('no statement waited for a lock');
    };

    it('on an item deleted with its order: the deletion waits, then takes the note', async () => {
      const o = await shippedOrder();
      const writer = db.createQueryRunner();
      await writer.connect();
      try {
        // What POST /notes holds until it commits: the record key-share locked, the note written.
        await writer.startTransaction();
        await writer.query(`SELECT 1 FROM order_item WHERE id = $1 FOR KEY SHARE`, [o.first.id]);
        const [note] = await writer.query(
          `INSERT INTO note (workspace_id, entity, entity_id, comment)
           VALUES ($1, 'order_items', $2, 'written meanwhile') RETURNING id`,
          [t.workspaceId, o.first.id],
        );
        const deleting = http()
          .delete(o.order['@id'])
          .then((res) => res.status);
        await lockWait();
        await writer.commitTransaction();
        expect(await deleting).toBe(204);
        expect(await count('note', note.id)).toBe(0);
      } finally {
        if (writer.isTransactionActive) await writer.rollbackTransaction();
        await writer.release();
      }
    });

    it('POST /notes waits for a deletion in progress, then finds no record (422)', async () => {
      const o = await shippedOrder();
      const deleter = db.createQueryRunner();
      await deleter.connect();
      try {
        await deleter.startTransaction();
        await deleter.query(`DELETE FROM order_item WHERE id = $1`, [o.first.id]);
        const posting = http()
          .post('/notes', {
            workspace: `/workspaces/${t.workspaceId}`,
            entity: 'order_items',
            entityId: o.first.id,
            comment: 'too late',
          })
          .then((res) => ({ status: res.status, body: res.body }));
        await lockWait();
        await deleter.commitTransaction();
        const res = await posting;
        expect(res.status).toBe(422);
        expect(res.body.violations[0].propertyPath).toBe('entityId');
        const [{ n }] = await db.query(
          `SELECT count(*)::int AS n FROM note WHERE entity = 'order_items' AND entity_id = $1`,
          [o.first.id],
        );
        expect(n).toBe(0);
      } finally {
        if (deleter.isTransactionActive) await deleter.rollbackTransaction();
        await deleter.release();
      }
    });
  });
});
