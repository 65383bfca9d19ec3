import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { FileStorage } from '../src/media/file-storage';
import { WorkspaceDeletion } from '../src/workspaces/workspace-deletion';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { PNG, upload } from './factories/media.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('media', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  it('uploads a file, lists it and serves it back', async () => {
    const res = await upload(app, tenant.token, PNG, 'my logo.png').expect(201);
    expect(res.body).toEqual({
      '@context': '/contexts/Media',
      '@id': `/media/${res.body.id}`,
      '@type': 'Media',
      id: expect.any(String),
      filePath: expect.stringMatching(/^\/media\/files\/[0-9a-f-]{36}\/my_logo\.png$/),
    });
    expect(res.headers.location).toBe(res.body['@id']);

    const one = await api(app, { token: tenant.token }).get(res.body['@id']).expect(200);
    expect(one.body.filePath).toBe(res.body.filePath);
    const list = await api(app, { token: tenant.token }).get('/media').expect(200);
    expect(list.body['hydra:member'].map((m: any) => m.id)).toContain(res.body.id);

    const file = await request(app.getHttpServer()).get(res.body.filePath).expect(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toBeUndefined();
    expect(Buffer.compare(file.body as Buffer, PNG)).toBe(0);
  });

  it('serves files that are not verified images as sandboxed downloads', async () => {
    const res = await upload(app, tenant.token, Buffer.from('<svg onload="x()"/>'), 'x.svg');
    expect(res.status).toBe(201);
    const file = await request(app.getHttpServer()).get(res.body.filePath).expect(200);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.headers['content-disposition']).toBe('attachment; filename="x.svg"');
    expect(file.headers['content-security-policy']).toContain('sandbox');
  });

  it('answers 422 without a file, 415 for JSON, 404 for unknown files', async () => {
    const none = await request(app.getHttpServer())
      .post('/media')
      .set('Authorization', `Bearer ${tenant.token}`)
      .field('fileOriginalName', 'x')
      .expect(422);
    expect(none.body.violations[0].propertyPath).toBe('file');
    await api(app, { token: tenant.token }).post('/media', { file: 'abc' }).expect(415);
    await request(app.getHttpServer())
      .get('/media/files/00000000-0000-4000-8000-000000000000/x.png')
      .expect(404);
    await request(app.getHttpServer()).get('/media/files/..%2F..%2Fetc/passwd').expect(404);
  });

  it('hides another user’s uploads until they are attached to a shared workspace', async () => {
    const other = await createTenant(app);
    const res = await upload(app, other.token, PNG).expect(201);
    await api(app, { token: tenant.token }).get(`/media/${res.body.id}`).expect(404);
    const list = await api(app, { token: tenant.token }).get('/media').expect(200);
    expect(list.body['hydra:member'].map((m: any) => m.id)).not.toContain(res.body.id);
  });

  it('attaches to a workspace given in the form, checking it is visible', async () => {
    const other = await createTenant(app);
    const bad = await upload(app, tenant.token, PNG, 'a.png', {
      workspace: `/workspaces/${other.workspaceId}`,
    }).expect(422);
    expect(bad.body.violations[0].propertyPath).toBe('workspace');
    const second = await addWorkspace(app, tenant);
    const ok = await upload(app, tenant.token, PNG, 'a.png', {
      workspace: `/workspaces/${second}`,
    }).expect(201);
    const [row] = await app
      .get(DataSource)
      .query(`SELECT workspace_id FROM media WHERE id = $1`, [ok.body.id]);
    expect(row.workspace_id).toBe(second);
  });

  it('removes stored files once their last row is gone, not before', async () => {
    const db = app.get(DataSource);
    const storage = app.get(FileStorage);
    const res = await upload(app, tenant.token, PNG).expect(201);
    const key = String(res.body.filePath).replace('/media/files/', '');
    const [copy] = await db.query(
      `INSERT INTO media (workspace_id, uploaded_by_id, storage_key, file_path, mime_type, size)
       SELECT $2, uploaded_by_id, storage_key, file_path, mime_type, size FROM media WHERE id = $1 RETURNING id`,
      [res.body.id, tenant.workspaceId],
    );
    await db.query(`DELETE FROM media WHERE id = $1`, [res.body.id]);
    await app.get(WorkspaceDeletion).tick(100);
    expect(await storage.open(key)).not.toBeNull();
    await request(app.getHttpServer()).get(res.body.filePath).expect(200);

    await db.query(`DELETE FROM media WHERE id = $1`, [copy.id]);
    await request(app.getHttpServer()).get(res.body.filePath).expect(404);
    const [queued] = await db.query(`SELECT count(*)::int AS n FROM media_file_gc`);
    expect(queued.n).toBeGreaterThan(0);
    await app.get(WorkspaceDeletion).tick(100);
    const [left] = await db.query(`SELECT count(*)::int AS n FROM media_file_gc`);
    expect(left.n).toBe(0);
    expect(await storage.open(key)).toBeNull();
  });
});
