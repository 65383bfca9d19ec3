import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { NoteReminderDispatcher } from '../src/notes/note-reminder-dispatcher';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { PNG, upload } from './factories/media.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('notes', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let t: Tenant;
  let shipmentId: string;
  let orderId: string;

  const shipmentIn = async (workspaceId: string) =>
    (
      await db.query(
        `INSERT INTO shipment (workspace_id, tracking_number) VALUES ($1, $2) RETURNING id`,
        [workspaceId, `TMNOTE${Math.random().toString(36).slice(2, 10).toUpperCase()}`],
      )
    )[0].id as string;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
  });
  afterAll(() => closeTestApp(app));
  beforeEach(async () => {
    t = await createTenant(app);
    shipmentId = await shipmentIn(t.workspaceId);
    [{ id: orderId }] = await db.query(
      `INSERT INTO "order" (workspace_id, order_type) VALUES ($1, 'customer') RETURNING id`,
      [t.workspaceId],
    );
  });

  const note = (tenant: Tenant, body: Record<string, unknown>) =>
    api(app, { token: tenant.token }).post('/notes', {
      workspace: `/workspaces/${tenant.workspaceId}`,
      ...body,
    });

  it('creates a note on a shipment with its author and reads it back', async () => {
    await db.query(`UPDATE "user" SET first_name = 'Ada', last_name = 'Lovelace' WHERE id = $1`, [
      t.userId,
    ]);
    const res = await note(t, {
      entity: 'shipments',
      entityId: shipmentId,
      comment: 'Customer called',
    }).expect(201);
    expect(res.body).toMatchObject({
      '@type': 'Note',
      workspace: `/workspaces/${t.workspaceId}`,
      entity: 'shipments',
      entityId: shipmentId,
      comment: 'Customer called',
      user: `/users/${t.userId}`,
      userFullName: 'Ada Lovelace',
      attachment: null,
      createdAt: expect.any(String),
    });
    await api(app, { token: t.token }).get(res.body['@id']).expect(200);
  });

  it('checks entity and entityId against the workspace', async () => {
    const r1 = await note(t, { entity: 'planets', entityId: shipmentId, comment: 'x' }).expect(422);
    expect(r1.body.violations[0]).toMatchObject({
      propertyPath: 'entity',
      message: 'The value you selected is not a valid choice.',
    });
    const r2 = await note(t, { entity: 'orders', entityId: shipmentId, comment: 'x' }).expect(422);
    expect(r2.body.violations[0]).toMatchObject({
      propertyPath: 'entityId',
      message: `Item not found for "/orders/${shipmentId}".`,
    });
    const other = await createTenant(app);
    const foreign = await shipmentIn(other.workspaceId);
    const r3 = await note(t, { entity: 'shipments', entityId: foreign, comment: 'x' }).expect(422);
    expect(r3.body.violations[0].propertyPath).toBe('entityId');
    const second = await addWorkspace(app, t);
    await note(t, {
      workspace: `/workspaces/${second}`,
      entity: 'shipments',
      entityId: shipmentId,
      comment: 'x',
    }).expect(422);
    const r4 = await note(t, { entity: 'shipments', entityId: 'nope', comment: 'x' }).expect(422);
    expect(r4.body.violations[0].message).toBe('This is not a valid UUID.');
    const r5 = await note(t, {}).expect(422);
    expect(r5.body.violations.map((v: any) => v.propertyPath).sort()).toEqual([
      'entity',
      'entityId',
    ]);
    await note(t, { entity: 'shipments', entityId: shipmentId, comment: '' }).expect(422);
    await note(t, { entity: 'shipments', entityId: shipmentId, comment: 5 }).expect(400);
    await note(t, {
      workspace: `/workspaces/${other.workspaceId}`,
      entity: 'shipments',
      entityId: foreign,
      comment: 'x',
    }).expect(422);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM note WHERE workspace_id = $1`, [
      t.workspaceId,
    ]);
    expect(n).toBe(0);
  });

  it('filters by entity and entityId, orders by createdAt, on every collection route', async () => {
    await note(t, { entity: 'shipments', entityId: shipmentId, comment: 'a' }).expect(201);
    await note(t, { entity: 'orders', entityId: orderId, comment: 'b' }).expect(201);
    await note(t, { entity: 'orders', entityId: orderId, comment: 'c' }).expect(201);
    const as = api(app, { token: t.token });
    const ids = (res: request.Response) => {
      expect(res.status).toBe(200);
      return res.body['hydra:member'].map((m: any) => m.comment);
    };

    expect(ids(await as.get('/notes?entity=orders&order[createdAt]=asc'))).toEqual(['b', 'c']);
    expect(ids(await as.get(`/notes?entityId=${shipmentId}`))).toEqual(['a']);
    expect(ids(await as.get(`/notes?entityId[]=${shipmentId}&entityId[]=${orderId}`))).toHaveLength(
      3,
    );
    expect(
      ids(await as.get('/notes?entity[]=orders&entity[]=shipments&order[createdAt]=desc')),
    ).toEqual(['c', 'b', 'a']);
    expect(ids(await as.get(`/workspaces/${t.workspaceId}/notes?entity=shipments`))).toEqual(['a']);
    expect(
      ids(
        await as.get(`/teams/${t.teamId}/workspaces/${t.workspaceId}/notes?order[createdAt]=asc`),
      ),
    ).toEqual(['a', 'b', 'c']);
    const search = (await as.get('/notes')).body['hydra:search']['hydra:template'];
    expect(search).toBe('/notes{?entity,entity[],entityId,entityId[],order[createdAt]}');

    const other = await createTenant(app);
    await api(app, { token: other.token }).get(`/workspaces/${t.workspaceId}/notes`).expect(404);
    const theirs = await api(app, { token: other.token }).get('/notes').expect(200);
    expect(theirs.body['hydra:totalItems']).toBe(0);
  });

  it('lets the author (or a team admin) edit and delete; PUT replaces the comment', async () => {
    const res = await note(t, { entity: 'orders', entityId: orderId, comment: 'one' }).expect(201);
    const put = await api(app, { token: t.token })
      .put(res.body['@id'], { comment: 'two', entity: 'shipments' })
      .expect(200);
    expect(put.body).toMatchObject({ comment: 'two', entity: 'orders' });
    await api(app, { token: t.token }).put(res.body['@id'], {}).expect(422);

    const member = await createTenant(app);
    await db.query(`INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'member')`, [
      t.teamId,
      member.userId,
    ]);
    await db.query(`INSERT INTO workspace_member (workspace_id, user_id) VALUES ($1, $2)`, [
      t.workspaceId,
      member.userId,
    ]);
    await api(app, { token: member.token }).get(res.body['@id']).expect(200);
    await api(app, { token: member.token }).put(res.body['@id'], { comment: 'x' }).expect(403);
    await api(app, { token: member.token }).delete(res.body['@id']).expect(403);
    const other = await createTenant(app);
    await api(app, { token: other.token }).delete(res.body['@id']).expect(404);
    await api(app, { token: t.token }).delete(res.body['@id']).expect(204);
    await api(app, { token: t.token }).get(res.body['@id']).expect(404);
  });

  describe('attachments', () => {
    it('takes a media IRI as the note attachment and lists it under the note', async () => {
      const media = await upload(app, t.token, PNG, 'receipt.png').expect(201);
      const res = await note(t, {
        entity: 'orders',
        entityId: orderId,
        attachment: media.body['@id'],
      }).expect(201);
      expect(res.body.attachment).toMatchObject({
        id: media.body.id,
        filePath: media.body.filePath,
      });
      const list = await api(app, { token: t.token })
        .get(`${res.body['@id']}/attachments`)
        .expect(200);
      expect(list.body['hydra:member']).toEqual([
        expect.objectContaining({
          '@type': 'NoteAttachment',
          note: res.body['@id'],
          media: expect.objectContaining({ id: media.body.id }),
          fileName: 'receipt.png',
          mimeType: 'image/png',
          size: PNG.length,
        }),
      ]);
      await api(app, { token: t.token })
        .post('/notes', {
          workspace: `/workspaces/${t.workspaceId}`,
          entity: 'orders',
          entityId: orderId,
          attachment: { id: media.body.id },
        })
        .expect(400);
      // Removing the main file from the list clears the note's attachment.
      await api(app, { token: t.token }).delete(list.body['hydra:member'][0]['@id']).expect(204);
      const after = await api(app, { token: t.token }).get(res.body['@id']).expect(200);
      expect(after.body.attachment).toBeNull();
    });

    it('uploads files to a note and lists them on the nested routes', async () => {
      const n = await note(t, { entity: 'orders', entityId: orderId, comment: 'x' }).expect(201);
      const up = await request(app.getHttpServer())
        .post(`${n.body['@id']}/attachments`)
        .set('Authorization', `Bearer ${t.token}`)
        .attach('file', Buffer.from('a,b\n1,2\n'), {
          filename: 'data.csv',
          contentType: 'text/csv',
        })
        .expect(201);
      expect(up.body).toMatchObject({
        '@type': 'NoteAttachment',
        fileName: 'data.csv',
        mimeType: 'text/csv',
      });
      const media = await upload(app, t.token, PNG).expect(201);
      await api(app, { token: t.token })
        .post(`${n.body['@id']}/attachments`, { media: media.body['@id'] })
        .expect(201);
      await api(app, { token: t.token })
        .post(`${n.body['@id']}/attachments`, { media: media.body['@id'] })
        .expect(422);
      const as = api(app, { token: t.token });
      for (const path of [
        `/notes/${n.body.id}/attachments`,
        `/workspaces/${t.workspaceId}/notes/${n.body.id}/attachments`,
        `/teams/${t.teamId}/workspaces/${t.workspaceId}/notes/${n.body.id}/attachments`,
      ]) {
        expect((await as.get(path).expect(200)).body['hydra:totalItems']).toBe(2);
      }
      const file = await request(app.getHttpServer()).get(up.body.media.filePath).expect(200);
      expect(file.text).toBe('a,b\n1,2\n');

      await as.delete(up.body['@id']).expect(204);
      expect((await as.get(`/notes/${n.body.id}/attachments`)).body['hydra:totalItems']).toBe(1);
    });

    it('answers 404 for another tenant’s note, 422 without a file', async () => {
      const n = await note(t, { entity: 'orders', entityId: orderId, comment: 'x' }).expect(201);
      const other = await createTenant(app);
      await request(app.getHttpServer())
        .post(`${n.body['@id']}/attachments`)
        .set('Authorization', `Bearer ${other.token}`)
        .attach('file', PNG, 'a.png')
        .expect(404);
      await api(app, { token: other.token }).get(`${n.body['@id']}/attachments`).expect(404);
      await api(app, { token: t.token }).post(`${n.body['@id']}/attachments`, {}).expect(422);
      const foreignMedia = await upload(app, other.token, PNG).expect(201);
      await api(app, { token: t.token })
        .post(`${n.body['@id']}/attachments`, { media: foreignMedia.body['@id'] })
        .expect(422);
    });
  });

  describe('reminders', () => {
    it('creates reminders for the caller and lists them on every route', async () => {
      const n = await note(t, { entity: 'orders', entityId: orderId, comment: 'x' }).expect(201);
      const at = new Date(Date.now() + 3600_000).toISOString();
      const r = await api(app, { token: t.token })
        .post('/note_reminders', { note: n.body['@id'], remindAt: at, comment: 'Call back' })
        .expect(201);
      expect(r.body).toMatchObject({
        '@type': 'NoteReminder',
        note: n.body['@id'],
        workspace: `/workspaces/${t.workspaceId}`,
        user: `/users/${t.userId}`,
        remindAt: at.replace(/\.\d{3}Z$/, '+00:00'),
        comment: 'Call back',
        sentAt: null,
      });
      const as = api(app, { token: t.token });
      for (const path of [
        '/note_reminders',
        `/notes/${n.body.id}/reminders`,
        `/workspaces/${t.workspaceId}/notes/${n.body.id}/reminders`,
        `/teams/${t.teamId}/workspaces/${t.workspaceId}/notes/${n.body.id}/reminders`,
      ]) {
        expect((await as.get(path).expect(200)).body['hydra:totalItems']).toBe(1);
      }
      await as.get(r.body['@id']).expect(200);
      const other = await createTenant(app);
      await api(app, { token: other.token }).get(r.body['@id']).expect(404);
      await api(app, { token: other.token }).get(`/notes/${n.body.id}/reminders`).expect(404);
      await api(app, { token: other.token })
        .post('/note_reminders', { note: n.body['@id'], remindAt: at })
        .expect(422);
    });

    it('delivers due reminders once, as notifications to the reminded user', async () => {
      const n = await note(t, { entity: 'orders', entityId: orderId, comment: 'x' }).expect(201);
      const r = await api(app, { token: t.token })
        .post('/note_reminders', {
          note: n.body['@id'],
          remindAt: new Date(Date.now() + 60_000).toISOString(),
          comment: 'Call the customer back',
        })
        .expect(201);
      const dispatcher = app.get(NoteReminderDispatcher);
      await dispatcher.dispatch();
      expect((await api(app, { token: t.token }).get(r.body['@id'])).body.sentAt).toBeNull();
      await db.query(
        `UPDATE note_reminder SET remind_at = now() - interval '1 minute' WHERE id = $1`,
        [r.body.id],
      );
      expect(await dispatcher.dispatch()).toBeGreaterThanOrEqual(1);
      expect(await dispatcher.dispatch()).toBe(0);
      const after = await api(app, { token: t.token }).get(r.body['@id']).expect(200);
      expect(after.body.sentAt).not.toBeNull();
      const rows = await db.query(
        `SELECT tag, message, data FROM notification WHERE user_id = $1`,
        [t.userId],
      );
      expect(rows).toEqual([
        {
          tag: 'note_reminder',
          message: 'Call the customer back',
          data: [n.body['@id'], r.body['@id']],
        },
      ]);
    });

    it('sends nothing to a reminded user who no longer sees the workspace', async () => {
      const member = await createTenant(app);
      await db.query(
        `INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'member')`,
        [t.teamId, member.userId],
      );
      await db.query(`INSERT INTO workspace_member (workspace_id, user_id) VALUES ($1, $2)`, [
        t.workspaceId,
        member.userId,
      ]);
      const n = await note(t, { entity: 'orders', entityId: orderId, comment: 'x' }).expect(201);
      const remind = (token: string, comment: string) =>
        api(app, { token })
          .post('/note_reminders', {
            note: n.body['@id'],
            remindAt: new Date(Date.now() + 60_000).toISOString(),
            comment,
          })
          .expect(201);
      const gone = await remind(member.token, 'Ask about the refund');
      const kept = await remind(t.token, 'Check the parcel');
      // The member loses the workspace before the reminder falls due.
      await db.query(`DELETE FROM workspace_member WHERE workspace_id = $1 AND user_id = $2`, [
        t.workspaceId,
        member.userId,
      ]);
      await db.query(
        `UPDATE note_reminder SET remind_at = now() - interval '1 minute' WHERE id = ANY($1)`,
        [[gone.body.id, kept.body.id]],
      );
      await app.get(NoteReminderDispatcher).dispatch();
      const notified = async (userId: string) =>
        (await db.query(`SELECT message FROM notification WHERE user_id = $1`, [userId])).map(
          (r: { message: string }) => r.message,
        );
      expect(await notified(member.userId)).toEqual([]);
      expect(await notified(t.userId)).toEqual(['Check the parcel']);
      const [spent] = await db.query(`SELECT sent_at FROM note_reminder WHERE id = $1`, [
        gone.body.id,
      ]);
      expect(spent.sent_at).not.toBeNull();
    });

    it('refuses reminders in the past and re-arms a moved one', async () => {
      const n = await note(t, { entity: 'orders', entityId: orderId, comment: 'x' }).expect(201);
      const past = await api(app, { token: t.token })
        .post('/note_reminders', { note: n.body['@id'], remindAt: '2001-01-01T00:00:00Z' })
        .expect(422);
      expect(past.body.violations[0].propertyPath).toBe('remindAt');
      await api(app, { token: t.token })
        .post('/note_reminders', { note: n.body['@id'], remindAt: 'tomorrow' })
        .expect(400);
      // Dates JavaScript reads but RFC 3339 cannot write (years beyond four digits).
      for (const remindAt of ['+275760-09-13T00:00:00Z', '8640000000000000', '10000-01-01T00:00Z'])
        await api(app, { token: t.token })
          .post('/note_reminders', { note: n.body['@id'], remindAt })
          .expect(400);
      await api(app, { token: t.token })
        .post('/note_reminders', { note: n.body['@id'] })
        .expect(422);
      const r = await api(app, { token: t.token })
        .post('/note_reminders', {
          note: n.body['@id'],
          remindAt: new Date(Date.now() + 60_000).toISOString(),
        })
        .expect(201);
      await db.query(`UPDATE note_reminder SET sent_at = now() WHERE id = $1`, [r.body.id]);
      const moved = await api(app, { token: t.token })
        .put(r.body['@id'], { remindAt: new Date(Date.now() + 7200_000).toISOString() })
        .expect(200);
      expect(moved.body.sentAt).toBeNull();
      await api(app, { token: t.token }).delete(r.body['@id']).expect(204);
      // A note's reminders go with it.
      const again = await api(app, { token: t.token })
        .post('/note_reminders', {
          note: n.body['@id'],
          remindAt: new Date(Date.now() + 60_000).toISOString(),
        })
        .expect(201);
      await api(app, { token: t.token }).delete(n.body['@id']).expect(204);
      await api(app, { token: t.token }).get(again.body['@id']).expect(404);
    });
  });
});
