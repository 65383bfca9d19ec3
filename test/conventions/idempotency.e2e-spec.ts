import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { testTrackingNumber } from '../factories/commerce.factory';

/** README "API conventions": Idempotency-Key on every POST. */
describe('Idempotency-Key', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const shipments = async () =>
    Number(
      (
        await db.query(`SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1`, [
          tenant.workspaceId,
        ])
      )[0].n,
    );

  /** A POST of `body` by `token` under an Idempotency-Key (supertest: `.expect()` to await). */
  const postWithKey = (path: string, body: object, key: string, token = tenant.token) =>
    api(app).withToken(token).post(path, body).set('Idempotency-Key', key);
  /** The body of a new shipment in a tenant's workspace. */
  const newShipment = (t: Tenant = tenant) => ({
    workspace: `/workspaces/${t.workspaceId}`,
    trackingNumber: testTrackingNumber(),
  });

  it('replays the first answer for the same body without creating a second shipment', async () => {
    const key = randomUUID();
    const body = newShipment();
    const first = await postWithKey('/shipments', body, key).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await shipments();
    const again = await postWithKey('/shipments', body, key).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['location']).toBe(first.headers['location']);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toEqual(first.body);
    expect(await shipments()).toBe(before);
    // Another key (or none) is another request.
    await postWithKey(
      '/shipments',
      { ...body, trackingNumber: testTrackingNumber() },
      randomUUID(),
    ).expect(201);
    expect(await shipments()).toBe(before + 1);
  });

  it('keeps the answer sealed at rest: a new OAuth client secret is never stored in clear', async () => {
    const key = randomUUID();
    const first = await postWithKey('/oauth_clients', { name: 'Idempotent client' }, key);
    expect(first.status).toBe(201);
    const secret = first.body.secret as string;
    expect(secret?.length).toBeGreaterThan(10);
    const [row] = await db.query(
      `SELECT sealed_body, headers::text AS headers FROM idempotency_key WHERE idempotency_key = $1`,
      [key],
    );
    expect(row.sealed_body).not.toContain(secret);
    expect(Buffer.from(row.sealed_body).toString('base64')).not.toContain(
      Buffer.from(secret).toString('base64'),
    );
    const replay = await postWithKey('/oauth_clients', { name: 'Idempotent client' }, key).expect(
      201,
    );
    expect(replay.body.secret).toBe(secret);
  });

  it('answers 422 for the same key with another body, and stores client errors', async () => {
    const key = randomUUID();
    const bad = { workspace: `/workspaces/${tenant.workspaceId}`, trackingNumber: 'not valid!' };
    const first = await postWithKey('/shipments', bad, key).expect(422);
    const replay = await postWithKey('/shipments', bad, key).expect(422);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const other = await postWithKey(
      '/shipments',
      { ...bad, trackingNumber: testTrackingNumber() },
      key,
    ).expect(422);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body['hydra:description']).toMatch(/another request/);
  });

  it('scopes keys per caller: another user with the same key does the work', async () => {
    const key = randomUUID();
    const other = await createTenant(app);
    await postWithKey('/shipments', newShipment(), key).expect(201);
    const res = await postWithKey('/shipments', newShipment(other), key, other.token).expect(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('of concurrent retries with one key, one does the work and the others get 409 or its answer', async () => {
    const key = randomUUID();
    const body = newShipment();
    const before = await shipments();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => postWithKey('/shipments', body, key)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const fresh = answers.filter((r) => r.status === 201 && !r.headers['idempotent-replayed']);
    expect(fresh).toHaveLength(1);
    for (const r of answers.filter((a) => a.status === 409))
      expect(r.body['hydra:description']).toMatch(/still running/);
    expect(await shipments()).toBe(before + 1);
    const settled = await postWithKey('/shipments', body, key).expect(201);
    expect(settled.headers['idempotent-replayed']).toBe('true');
    expect(settled.body['@id']).toBe(fresh[0].body['@id']);
  });

  it("tells uploads apart by their file's bytes: another file under the key is 422", async () => {
    const key = randomUUID();
    const upload = (csv: string) =>
      api(app)
        .withToken(tenant.token)
        .post('/imports')
        .field('workspace', `/workspaces/${tenant.workspaceId}`)
        .attach('file', Buffer.from(csv), 'upload.csv')
        .set('Idempotency-Key', key);
    const imports = async () =>
      Number(
        (
          await db.query(`SELECT count(*)::int AS n FROM import WHERE workspace_id = $1`, [
            tenant.workspaceId,
          ])
        )[0].n,
      );
    const csv = `trackingNumber\n${testTrackingNumber()}\n`;
    const first = await upload(csv).expect(201);
    const before = await imports();
    const replay = await upload(csv).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body['@id']).toBe(first.body['@id']);
    const other = await upload(`trackingNumber\n${testTrackingNumber()}\n`).expect(422);
    expect(other.body['hydra:description']).toMatch(/another request/);
    expect(await imports()).toBe(before);
  });

  it('refuses a malformed key with 400, changing nothing', async () => {
    const before = await shipments();
    const res = await postWithKey('/shipments', newShipment(), 'x'.repeat(300)).expect(400);
    expect(res.body['hydra:description']).toMatch(/Idempotency-Key/);
    expect(await shipments()).toBe(before);
  });

  it('frees an expired key for a new request, and the retention sweep deletes expired keys', async () => {
    const key = randomUUID();
    await db.query(
      `INSERT INTO idempotency_key (caller, method, path, idempotency_key, fingerprint, status, headers, sealed_body, expires_at)
       VALUES ($1, 'POST', '/shipments', $2, 'old', 201, '{}', NULL, now() - interval '1 second')`,
      [`user:${tenant.userId}:`, key],
    );
    // Expired: the key is free again, for any body.
    const res = await postWithKey('/shipments', newShipment(), key).expect(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    await db.query(
      `UPDATE idempotency_key SET expires_at = now() - interval '1 second' WHERE idempotency_key = $1`,
      [key],
    );
    const { IDEMPOTENCY_RETENTION } = await import('../../src/idempotency/idempotency-store');
    const [swept] = await db.query(IDEMPOTENCY_RETENTION.batchSql, [new Date(), 1000]);
    expect(swept.n).toBeGreaterThanOrEqual(1);
    expect(
      await db.query(`SELECT 1 FROM idempotency_key WHERE idempotency_key = $1`, [key]),
    ).toHaveLength(0);
  });
});
