import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { FileStorage } from '../src/media/file-storage';
import { MediaService } from '../src/media/media.service';
import { createOrder, createShipment } from './factories/commerce.factory';
import { PNG, upload } from './factories/media.factory';
import { Tenant, createTenant } from './factories/tenant.factory';
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
  const count = async (table: string, id: string) =>
    (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE id = $1`, [id]))[0].n as number;
  /** Runs the media file sweeper (the periodic job that removes files after commit) dry. */
  const sweep = async () => {
    while ((await app.get(MediaService).sweepOrphanFiles()) > 0);
  };

  /** A note on the record with an uploaded file and a reminder, all through the API. */
  const noteOn = async (entity: string, entityId: string): Promise<NoteParts> => {
    const note = await http()
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
    const reminder = await http()
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
  };

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

    it('write no shipment.updated for the shipments an order deletion changed', async () => {
      const a = await createOrder(app, t);
      const shipment = await createShipment(app, t, { orderNumbers: [a.orderNumber] });
      await http().delete(a['@id']).expect(204);
      expect((await http().get(shipment['@id'])).body.orderNumbers).toEqual([]);
      const events = await db.query(
        `SELECT type FROM outbox_event WHERE aggregate_id = $1 ORDER BY created_at, id`,
        [shipment.id],
      );
      expect(events.map((e: { type: string }) => e.type)).not.toContain('shipment.updated');
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
