import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { createShipment, testTrackingNumber } from './factories/commerce.factory';
import { PrincipalLoader } from '../src/access/principal-loader';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { ResourceWriter } from '../src/hydra/write/resource-writer';
import { Shipment } from '../src/shipments/shipment.entity';
import { ShipmentsService } from '../src/shipments/shipments.service';

describe('shipments', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let workspace: string;

  beforeAll(async () => {
    app = await createTestApp();
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    workspace = `/workspaces/${tenant.workspaceId}`;
  });
  afterAll(() => closeTestApp(app));

  /** A passive store integration of the tenant's workspace. */
  const storeWorkflow = async (type = 'shopify') =>
    (
      await api(app, { token: tenant.token })
        .post('/workflows', { title: `${type} store`, type, workspace, period: 'daily' })
        .expect(201)
    ).body['@id'] as string;

  it('creates a shipment with address and status, identifying the carrier', async () => {
    const number = testTrackingNumber();
    const store = await storeWorkflow();
    const res = await api(app, { token: tenant.token })
      .post('/shipments', {
        workspace,
        trackingNumber: `  ${number} `,
        email: 'dorothy@example.com',
        phoneNumber: '(415) 555-2671',
        orderNumbers: ['ON1', ' ON1 ', 'ON2', ''],
        address: { city: 'Liberal', countryIso2: 'us', postcode: '67901' },
        shipmentStatus: { code: 'packed', title: 'Packed' },
        externalSourceIntegration: store,
        externalSourceSyncId: 'wo_1001',
        trackingStatus: 'delivered',
        daysInTransit: 99,
      })
      .expect(201);
    expect(res.headers.location).toBe(res.body['@id']);
    expect(res.body).toMatchObject({
      '@type': 'Shipment',
      trackingNumber: number,
      originCarrier: 'tm-test',
      email: 'dorothy@example.com',
      phoneNumber: '(415) 555-2671',
      orderNumbers: ['ON1', 'ON2'],
      workspace,
      externalSourceIntegration: store,
      externalSourceIntegrationType: 'shopify',
      fulfillmentIntegration: null,
      externalSourceSyncId: 'wo_1001',
      address: {
        city: 'Liberal',
        countryIso2: 'US',
        country: 'United States of America',
        postcode: '67901',
        addressLine1: null,
      },
    });
    // Read-only tracking fields come from the tracking engine, never from the body.
    expect(res.body.trackingStatus).not.toBe('delivered');
    expect(res.body.daysInTransit).not.toBe(99);
    expect(res.body.shipmentStatus).toEqual({
      '@id': `/statuses/${res.body.shipmentStatus.id}`,
      '@type': 'Status',
      id: res.body.shipmentStatus.id,
      code: 'packed',
      title: 'Packed',
    });
    // The same code again uses the same status.
    const again = await createShipment(app, tenant, { shipmentStatus: { code: 'packed' } });
    expect(again.shipmentStatus.id).toBe(res.body.shipmentStatus.id);
    expect(again.shipmentStatus.title).toBe('Packed');
  });

  it('requires a workspace and refuses foreign ones', async () => {
    const http = api(app, { token: tenant.token });
    const res = await http.post('/shipments', { trackingNumber: testTrackingNumber() }).expect(422);
    expect(res.body['hydra:description']).toBe('workspace: This value should not be blank.');
    const other = await createTenant(app);
    const foreign = await http
      .post('/shipments', { workspace: `/workspaces/${other.workspaceId}` })
      .expect(422);
    expect(foreign.body.violations[0].propertyPath).toBe('workspace');
    const count = await app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1', [
        other.workspaceId,
      ]);
    expect(count[0].n).toBe(0);
  });

  it('refuses a workspace deleted after the caller was authenticated, as a missing one', async () => {
    // The workspace reference is admitted from the caller's memberships (read with the token)
    // and its row checked by the create's first statement: a workspace gone in between is
    // reported as a missing reference, not as a failed insert.
    const principal = (await app.get(PrincipalLoader).forUser(tenant.userId))!;
    await app.get(DataSource).query('DELETE FROM workspace WHERE id = $1', [tenant.workspaceId]);
    const resource = app.get(ResourceRegistry).get(Shipment);
    const write = app
      .get(ResourceWriter)
      .create(
        resource,
        { workspace, trackingNumber: testTrackingNumber() },
        principal,
        app.get(ShipmentsService),
      );
    await expect(write).rejects.toMatchObject({
      violations: [
        { propertyPath: 'workspace', message: `Item not found for "${workspace}".`, code: null },
      ],
    });
  });

  it('validates tracking number, email, phone, workflow IRIs and the status code', async () => {
    const http = api(app, { token: tenant.token });
    const bad = await http
      .post('/shipments', {
        workspace,
        trackingNumber: 'AB-12',
        email: 'not-an-email',
        phoneNumber: '12345',
        fulfillmentIntegration: '/workflows/a0b97939-5aea-4b35-b7c6-64f56bff1721',
        address: { countryIso2: 'XX' },
      })
      .expect(422);
    expect(bad.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(
      ['address.countryIso2', 'email', 'fulfillmentIntegration', 'phoneNumber', 'trackingNumber'],
    );
    // A workflow reference is an IRI of a workflow: another resource's IRI is malformed input.
    await http
      .post('/shipments', {
        workspace,
        fulfillmentIntegration: '/shipments/a0b97939-5aea-4b35-b7c6-64f56bff1721',
      })
      .expect(400);
    await http.post('/shipments', { workspace, trackingNumber: '   ' }).expect(422);
    const status = await http
      .post('/shipments', { workspace, shipmentStatus: { title: 'No code' } })
      .expect(422);
    expect(status.body.violations[0].propertyPath).toBe('shipmentStatus.code');
    await http.post('/shipments', { workspace, trackingNumber: 42 }).expect(400);
    await http.post('/shipments', { workspace, shipmentStatus: 'packed' }).expect(400);
    // A national number needs the address country; an international one does not.
    await http
      .post('/shipments', { workspace, phoneNumber: '030 901820', address: { countryIso2: 'DE' } })
      .expect(201);
    await http.post('/shipments', { workspace, phoneNumber: '+49 30 901820' }).expect(201);
    const none = await app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1', [
        tenant.workspaceId,
      ]);
    expect(none[0].n).toBe(2);
  });

  it('keeps one shipment per tracking number and workspace', async () => {
    const number = testTrackingNumber();
    await createShipment(app, tenant, { trackingNumber: number });
    const http = api(app, { token: tenant.token });
    const res = await http
      .post('/shipments', { workspace, trackingNumber: ` ${number}` })
      .expect(422);
    expect(res.body.violations[0].propertyPath).toBe('trackingNumber');
    const other = await addWorkspace(app, tenant);
    await http
      .post('/shipments', { workspace: `/workspaces/${other}`, trackingNumber: number })
      .expect(201);
    // The unique index holds even when requests race past the pre-check.
    const racers = await Promise.all(
      Array.from({ length: 4 }, () =>
        http.post('/shipments', { workspace, trackingNumber: 'TM102RACE1TM' }),
      ),
    );
    expect(racers.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
    for (const r of racers.filter((x) => x.status === 422))
      expect(r.body.violations[0].propertyPath).toBe('trackingNumber');
  });

  it('suggests carriers when the tracking number does not identify one, storing nothing', async () => {
    const http = api(app, { token: tenant.token });
    const res = await http.post('/shipments', { workspace, trackingNumber: 'ZZZ123' }).expect(422);
    expect(res.body.violations[0].propertyPath).toBe('trackingNumber');
    expect(res.body.suggestedCarriers).toEqual([]);
    // Valid FedEx Express and Purolator numbers at once: a tie, so both are suggested.
    const ambiguous = await http
      .post('/shipments', { workspace, trackingNumber: '287809468872' })
      .expect(422);
    expect(ambiguous.body.violations[0].propertyPath).toBe('trackingNumber');
    expect(ambiguous.body.suggestedCarriers).toEqual([
      { code: 'fedex', name: expect.any(String) },
      { code: 'purolator', name: expect.any(String) },
    ]);
    const json = await api(app, { token: tenant.token })
      .json()
      .post('/shipments', { workspace, trackingNumber: 'ZZZ124' })
      .expect(422);
    expect(json.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(json.body.suggestedCarriers).toEqual([]);
    // With the carrier given, the same number is accepted.
    const ok = await http
      .post('/shipments', { workspace, trackingNumber: 'ZZZ123', originCarrier: 'UPS' })
      .expect(201);
    expect(ok.body.originCarrier).toBe('ups');
    const unknown = await http
      .post('/shipments', { workspace, trackingNumber: 'ZZZ125', originCarrier: 'nope' })
      .expect(422);
    expect(unknown.body.violations[0].propertyPath).toBe('originCarrier');
    const n = await app
      .get(DataSource)
      .query(
        "SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1 AND tracking_number <> 'ZZZ123'",
        [tenant.workspaceId],
      );
    expect(n[0].n).toBe(0);
    const chosen = await http
      .post('/shipments', { workspace, trackingNumber: '287809468872', originCarrier: 'purolator' })
      .expect(201);
    expect(chosen.body.originCarrier).toBe('purolator');
  });

  it('replaces a shipment: POST-only and read-only fields are ignored, the carrier is kept', async () => {
    const created = await createShipment(app, tenant, {
      externalSourceSyncId: 'a',
      shipmentStatus: { code: 'one' },
    });
    const http = api(app, { token: tenant.token });
    const other = await addWorkspace(app, tenant);
    const res = await http
      .put(created['@id'], {
        workspace: `/workspaces/${other}`,
        externalSourceSyncId: 'b',
        originCarrier: 'ups',
        trackingStatus: 'delivered',
        email: 'new@example.com',
        address: { city: 'Paris', country: 'France' },
        shipmentStatus: { code: 'two', title: 'Two' },
      })
      .expect(200);
    expect(res.body).toMatchObject({
      workspace,
      externalSourceSyncId: 'a',
      originCarrier: 'tm-test',
      trackingStatus: created.trackingStatus,
      email: 'new@example.com',
      trackingNumber: created.trackingNumber,
      address: { city: 'Paris', country: 'France', countryIso2: 'FR' },
      shipmentStatus: { code: 'two', title: 'Two' },
    });
    // A new tracking number is identified again.
    const renumbered = await http
      .put(created['@id'], { trackingNumber: '1Z999AA10123456784' })
      .expect(200);
    expect(renumbered.body.originCarrier).toBe('ups');
    const cleared = await http
      .put(created['@id'], { shipmentStatus: null, address: null, trackingNumber: '' })
      .expect(200);
    expect(cleared.body).toMatchObject({
      shipmentStatus: null,
      address: null,
      trackingNumber: null,
      originCarrier: null,
    });
  });

  it('sets the carrier once on a shipment created without a tracking number', async () => {
    const http = api(app, { token: tenant.token });
    const created = await createShipment(app, tenant, { trackingNumber: null });
    expect(created.originCarrier).toBeNull();
    const set = await http.put(created['@id'], { originCarrier: 'DHL' }).expect(200);
    expect(set.body.originCarrier).toBe('dhl');
    const again = await http.put(created['@id'], { originCarrier: 'ups' }).expect(200);
    expect(again.body.originCarrier).toBe('dhl');
  });

  it('answers many concurrent writes (transactions never wait on a second pool connection)', async () => {
    const http = api(app, { token: tenant.token });
    const created = await Promise.all(
      Array.from({ length: 30 }, () =>
        http.post('/shipments', { workspace, trackingNumber: testTrackingNumber() }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(30).fill(201));
    const replaced = await Promise.all(
      created.map((r) => http.put(r.body['@id'], { email: 'x@example.com' })),
    );
    expect(replaced.map((r) => r.status)).toEqual(Array(30).fill(200));
    // Many writers queued on one row lock while the lock holder resolves IRIs.
    const order = (
      await http
        .post('/orders', { workspace, orderNumber: 'CONTENDED', orderType: 'customer' })
        .expect(201)
    ).body;
    const target = created[0].body['@id'];
    const contended = await Promise.all(
      Array.from({ length: 25 }, () => http.put(target, { orders: [order['@id']] })),
    );
    expect(contended.map((r) => r.status)).toEqual(Array(25).fill(200));
  }, 30000);

  it('deletes a shipment and hides shipments of other tenants', async () => {
    const created = await createShipment(app, tenant);
    const other = await createTenant(app);
    const foreign = api(app, { token: other.token });
    await foreign.get(created['@id']).expect(404);
    await foreign.put(created['@id'], { email: 'x@example.com' }).expect(404);
    await foreign.delete(created['@id']).expect(404);
    await foreign.get(`/workspaces/${tenant.workspaceId}/shipments`).expect(404);
    const list = await foreign.get('/shipments').expect(200);
    expect(list.body['hydra:totalItems']).toBe(0);
    const http = api(app, { token: tenant.token });
    await http.delete(created['@id']).expect(204);
    await http.get(created['@id']).expect(404);
  });

  it('lists shipments on the nested routes with the spec filters', async () => {
    const a = await createShipment(app, tenant, { email: 'a@example.com' });
    await createShipment(app, tenant, { email: 'b@example.com' });
    const http = api(app, { token: tenant.token });
    for (const path of [
      `/workspaces/${tenant.workspaceId}/shipments?email=a@example.com`,
      `/teams/${tenant.teamId}/workspaces/${tenant.workspaceId}/shipments?email=a@example.com`,
      `/shipments?trackingNumber=${a.trackingNumber}`,
    ]) {
      const res = await http.get(path).expect(200);
      expect(res.body['hydra:member'].map((s: { id: string }) => s.id)).toEqual([a.id]);
    }
    const csv = await api(app, { token: tenant.token, accept: 'text/csv' })
      .get('/shipments?order[createdAt]=asc')
      .expect(200);
    const header = csv.text.split('\n')[0].split(',');
    expect(header).toEqual(
      expect.arrayContaining(['trackingNumber', 'address.city', 'shipmentStatus.code']),
    );
    expect(header).not.toContain('shipmentStatus.entity');
    expect(csv.text).toContain(a.trackingNumber);
    const res = await http.get('/shipments').expect(200);
    const template: string = res.body['hydra:search']['hydra:template'];
    for (const variable of [
      'order[address.state]',
      'orderNumbers[]',
      'shipmentStatus.code[]',
      'daysInIdle[]',
      'expectedDeliveryDate[strictly_after]',
      'reviewTotalScore[between]',
      'empty[address.state]',
    ]) {
      expect(template).toContain(variable);
    }
  });
});
