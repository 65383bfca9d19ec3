import type { NestExpressApplication } from '@nestjs/platform-express';
import { NotificationsService } from '../src/notifications/notifications.service';
import { Tenant, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('notifications', () => {
  let app: NestExpressApplication;
  let notifications: NotificationsService;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    notifications = app.get(NotificationsService);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const notify = (userId: string, tag = 'check_tracking_numbers', message = 'Done.') =>
    notifications.notify({ userId, tag, message, data: ['/shipments/x'] });

  it('lists only the caller own notifications, newest first, with the reference fields', async () => {
    const first = await notify(tenant.userId, 'import', 'Import finished.');
    const second = await notify(tenant.userId);
    const other = await createTenant(app);
    await notify(other.userId);
    const res = await api(app, { token: tenant.token }).get('/notifications').expect(200);
    expect(res.body['hydra:totalItems']).toBe(2);
    expect(res.body['hydra:member'].map((m: { id: string }) => m.id)).toEqual([second, first]);
    expect(res.body['hydra:member'][1]).toEqual({
      '@id': `/notifications/${first}`,
      '@type': 'Notification',
      user: `/users/${tenant.userId}`,
      tag: 'import',
      message: 'Import finished.',
      data: ['/shipments/x'],
      unread: true,
      readAt: null,
      createdAt: expect.any(String),
      updatedAt: null,
      id: first,
    });
    expect(res.body['hydra:search']['hydra:template']).toBe(
      '/notifications{?tag,tag[],message,order[createdAt],unread,createdAt[before],createdAt[strictly_before],createdAt[after],createdAt[strictly_after]}',
    );
    const filtered = await api(app, { token: tenant.token })
      .get('/notifications?tag=import')
      .expect(200);
    expect(filtered.body['hydra:totalItems']).toBe(1);
  });

  it('serves /users/{id}/notifications for the user only', async () => {
    await notify(tenant.userId);
    const mine = await api(app, { token: tenant.token })
      .get(`/users/${tenant.userId}/notifications`)
      .expect(200);
    expect(mine.body['hydra:totalItems']).toBe(1);
    const other = await createTenant(app);
    await api(app, { token: other.token }).get(`/users/${tenant.userId}/notifications`).expect(404);
    await api(app).get('/notifications').expect(401);
  });

  it('PUT marks one as read and back; another user gets 404', async () => {
    const id = await notify(tenant.userId);
    const http = api(app, { token: tenant.token });
    const read = await http.put(`/notifications/${id}`, { unread: false }).expect(200);
    expect(read.body).toMatchObject({ unread: false, readAt: expect.any(String) });
    expect(read.body.updatedAt).toEqual(expect.any(String));
    const unread = await http.put(`/notifications/${id}`, { unread: true }).expect(200);
    expect(unread.body).toMatchObject({ unread: true, readAt: null });
    await http.put(`/notifications/${id}`, { unread: 'no' }).expect(400);
    // Read-only attributes are ignored.
    const same = await http.put(`/notifications/${id}`, { message: 'hacked' }).expect(200);
    expect(same.body.message).toBe('Done.');
    const other = await createTenant(app);
    await api(app, { token: other.token })
      .put(`/notifications/${id}`, { unread: false })
      .expect(404);
    await api(app, { token: other.token }).get(`/notifications/${id}`).expect(404);
    const unreadOnly = await http.get('/notifications?unread=true').expect(200);
    expect(unreadOnly.body['hydra:totalItems']).toBe(1);
  });

  it('mark_as_read marks given ids or all of the caller, and 404 for a foreign id', async () => {
    const a = await notify(tenant.userId);
    const b = await notify(tenant.userId);
    const c = await notify(tenant.userId);
    const http = api(app, { token: tenant.token });
    const one = await http
      .post('/notifications/mark_as_read', { ids: [`/notifications/${a}`] })
      .expect(200);
    expect(one.body).toEqual({ markedAsRead: 1 });
    const other = await createTenant(app);
    const foreign = await notify(other.userId);
    await http.post('/notifications/mark_as_read', { ids: [b, foreign] }).expect(404);
    await http.post('/notifications/mark_as_read', { ids: 'all' }).expect(400);
    const rest = await http.post('/notifications/mark_as_read', {}).expect(200);
    expect(rest.body).toEqual({ markedAsRead: 2 });
    const list = await http.get('/notifications?unread=false').expect(200);
    expect(list.body['hydra:member'].map((m: { id: string }) => m.id).sort()).toEqual(
      [a, b, c].sort(),
    );
    // The other user's notification was not touched.
    const theirs = await api(app, { token: other.token }).get(`/notifications/${foreign}`);
    expect(theirs.body.unread).toBe(true);
  });

  it('mark_all_as_read (the reference name) marks everything of the caller', async () => {
    await notify(tenant.userId);
    const http = api(app, { token: tenant.token });
    const res = await http
      .post('/notifications/mark_all_as_read', { userId: `/users/${tenant.userId}` })
      .expect(201);
    expect(res.body).toEqual({ userId: tenant.userId, markedAsRead: 1 });
    const other = await createTenant(app);
    await http.post('/notifications/mark_all_as_read', { userId: other.userId }).expect(404);
  });
});
