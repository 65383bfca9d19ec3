import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { CustomFieldValuesService } from '../src/fields/custom-field-values.service';
import { PropertyValidators } from '../src/hydra/write/property-validators';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { Shipment } from '../src/shipments/shipment.entity';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('custom fields', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let t: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
  });
  afterAll(() => closeTestApp(app));
  beforeEach(async () => {
    t = await createTenant(app);
  });

  const field = (tenant: Tenant, body: Record<string, unknown> = {}) =>
    api(app, { token: tenant.token }).post('/fields', {
      code: 'gift_note',
      workspace: `/workspaces/${tenant.workspaceId}`,
      entity: 'orders',
      title: 'Gift note',
      fieldType: 'text',
      ...body,
    });

  describe('definitions', () => {
    it('creates a field addressed by its code', async () => {
      const res = await field(t, {
        code: 'size',
        entity: 'shipments',
        fieldType: 'select',
        selectOptions: { options: ['S', 'M', 'L'], junk: 1 },
        validation: 'required',
        default: 'M',
        tags: ['apparel'],
      }).expect(201);
      expect(res.headers.location).toBe('/fields/size');
      expect(res.body).toEqual({
        '@context': '/contexts/Field',
        '@id': '/fields/size',
        '@type': 'Field',
        code: 'size',
        workspace: `/workspaces/${t.workspaceId}`,
        entity: 'shipments',
        title: 'Gift note',
        fieldType: 'select',
        readonly: null,
        sorting: null,
        selectOptions: { keyField: null, titleField: null, options: ['S', 'M', 'L'], url: null },
        visibleExpr: null,
        validation: 'required',
        default: 'M',
        placeholder: null,
        refreshOnChange: null,
        helperText: null,
        tags: ['apparel'],
        options: [],
        primary: false,
      });
      const one = await api(app, { token: t.token }).get('/fields/size').expect(200);
      expect(one.body.code).toBe('size');
    });

    it.each([
      [{ code: '1abc' }, 'code', 'This value is not valid.'],
      [{ code: 'has-dash' }, 'code', 'This value is not valid.'],
      [{ entity: 'teams' }, 'entity', 'The value you selected is not a valid choice.'],
      [{ fieldType: 'colour' }, 'fieldType', 'The value you selected is not a valid choice.'],
      [{ title: '' }, 'title', 'This value should not be blank.'],
      [{ code: 'orderNumber' }, 'code', 'This code is used by a built-in field of this entity.'],
      [{ fieldType: 'select' }, 'options', expect.stringContaining('A select field needs options')],
      [{ validation: 'required|shiny' }, 'validation', 'Unknown validation rule "shiny".'],
      [
        { fieldType: 'email', default: 'nope' },
        'default',
        'This value is not a valid email address.',
      ],
      [
        { fieldType: 'select', selectOptions: { url: 'ftp://x' } },
        'selectOptions.url',
        'This value is not a valid URL.',
      ],
    ])('answers 422 for %j', async (body, propertyPath, message) => {
      const res = await field(t, body).expect(422);
      expect(res.body.violations).toContainEqual(
        expect.objectContaining({ propertyPath, message }),
      );
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM field WHERE workspace_id = $1`,
        [t.workspaceId],
      );
      expect(n).toBe(0);
    });

    it('requires code, workspace, entity, title and fieldType; 400 for wrong types', async () => {
      const res = await api(app, { token: t.token }).post('/fields', {}).expect(422);
      expect(res.body.violations.map((v: any) => v.propertyPath).sort()).toEqual([
        'code',
        'entity',
        'fieldType',
        'title',
        'workspace',
      ]);
      await field(t, { readonly: 'yes' }).expect(400);
      await field(t, { tags: [1] }).expect(400);
      await field(t, { selectOptions: { options: 'S' } }).expect(400);
    });

    it('keeps codes unique per workspace and entity only', async () => {
      await field(t).expect(201);
      const dup = await field(t).expect(422);
      expect(dup.body.violations[0]).toMatchObject({ propertyPath: 'code' });
      await field(t, { entity: 'shipments' }).expect(201);
      const second = await addWorkspace(app, t);
      await field(t, { workspace: `/workspaces/${second}` }).expect(201);
      const other = await createTenant(app);
      await field(other).expect(201);
      await field(t, { workspace: `/workspaces/${other.workspaceId}` }).expect(422);
    });

    it('finds /fields/{code} among the caller workspaces, asking to disambiguate', async () => {
      const second = await addWorkspace(app, t);
      await field(t, { title: 'Main' }).expect(201);
      await field(t, { workspace: `/workspaces/${second}`, title: 'Second' }).expect(201);
      const as = api(app, { token: t.token });
      const ambiguous = await as.get('/fields/gift_note').expect(400);
      expect(ambiguous.body['hydra:description']).toContain('workspace');
      const picked = await as.get(`/fields/gift_note?workspace=${second}`).expect(200);
      expect(picked.body.title).toBe('Second');
      await as.get('/fields/nothing_here').expect(404);
      const other = await createTenant(app);
      await api(app, { token: other.token }).get('/fields/gift_note').expect(404);
      const builtIn = await as.get('/fields/trackingNumber').expect(200);
      expect(builtIn.body).toMatchObject({
        code: 'trackingNumber',
        entity: 'shipments',
        primary: true,
      });
      await as.get('/fields/email').expect(400);
      const email = await as.get('/fields/email?entity=orders').expect(200);
      expect(email.body).toMatchObject({ entity: 'orders', fieldType: 'email' });
    });

    it('PUT replaces the definition (title required), never the code, workspace or entity', async () => {
      await field(t, { helperText: 'For the card', placeholder: 'Write here' }).expect(201);
      const res = await api(app, { token: t.token })
        .put('/fields/gift_note', {
          title: 'Card message',
          fieldType: 'text',
          validation: 'max:200',
          code: 'other',
          entity: 'shipments',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        '@id': '/fields/gift_note',
        code: 'gift_note',
        entity: 'orders',
        title: 'Card message',
        validation: 'max:200',
        helperText: null,
        placeholder: null,
      });
      const blank = await api(app, { token: t.token }).put('/fields/gift_note', {}).expect(422);
      expect(blank.body.violations.map((v: any) => v.propertyPath)).toContain('title');
      await api(app, { token: t.token })
        .put('/fields/gift_note', { title: 'x', fieldType: 'text', sorting: 'no' })
        .expect(400);
      await api(app, { token: t.token }).put('/fields/nothing', { title: 'x' }).expect(404);
      const builtIn = await api(app, { token: t.token })
        .put('/fields/trackingNumber', { title: 'x' })
        .expect(422);
      expect(builtIn.body.violations[0].message).toBe(
        'Built-in fields cannot be changed or removed.',
      );
    });

    it('DELETE removes the field and its values', async () => {
      await field(t, { entity: 'shipments' }).expect(201);
      const [s] = await db.query(
        `INSERT INTO shipment (workspace_id, tracking_number, custom_fields) VALUES ($1, 'TMDEL1', '{"gift_note": "hi", "keep": 1}') RETURNING id`,
        [t.workspaceId],
      );
      const other = await createTenant(app);
      await api(app, { token: other.token }).delete('/fields/gift_note').expect(404);
      await api(app, { token: t.token }).delete('/fields/gift_note').expect(204);
      await api(app, { token: t.token }).get('/fields/gift_note').expect(404);
      const [row] = await db.query(`SELECT custom_fields FROM shipment WHERE id = $1`, [s.id]);
      expect(row.custom_fields).toEqual({ keep: 1 });
      await api(app, { token: t.token }).delete('/fields/gift_note').expect(404);
    });
  });

  describe('GET /fields', () => {
    it('needs an entity it knows', async () => {
      const as = api(app, { token: t.token });
      const res = await as.get('/fields').expect(400);
      expect(res.body['hydra:description']).toBe('The "entity" query parameter is required.');
      await as.get('/fields?entity=planets').expect(400);
    });

    it('lists built-in fields generated from the resource declaration, then custom ones', async () => {
      await field(t, { entity: 'shipments', code: 'gift_note' }).expect(201);
      await field(t, { entity: 'orders', code: 'erp_id' }).expect(201);
      const as = api(app, { token: t.token });
      const primary = await as.get('/fields?entity=shipments&primary=true&itemsPerPage=500');
      const codes = primary.body['hydra:member'].map((f: any) => f.code);
      expect(codes).toEqual(
        expect.arrayContaining(['id', 'trackingNumber', 'address.city', 'workspace']),
      );
      expect(codes).not.toContain('gift_note');
      const byCode = new Map<string, any>(
        primary.body['hydra:member'].map((f: any) => [f.code, f]),
      );
      expect(byCode.get('trackingNumber')).toMatchObject({
        '@id': '/fields/trackingNumber',
        fieldType: 'text',
        readonly: false,
        sorting: true,
        primary: true,
        workspace: null,
      });
      expect(byCode.get('email')).toMatchObject({ fieldType: 'email' });
      expect(byCode.get('createdAt')).toMatchObject({ fieldType: 'date', readonly: true });
      expect(byCode.get('workspace')).toMatchObject({
        fieldType: 'select',
        validation: 'required',
        selectOptions: expect.objectContaining({ url: '/workspaces' }),
      });

      const custom = await as.get('/fields?entity=shipments&primary=false').expect(200);
      expect(custom.body['hydra:member'].map((f: any) => f.code)).toEqual(['gift_note']);
      const all = await as.get('/fields?entity=shipments&itemsPerPage=500').expect(200);
      expect(all.body['hydra:totalItems']).toBe(codes.length + 1);
      expect(all.body['hydra:member'].at(-1).code).toBe('gift_note');
      expect(all.body['hydra:search']['hydra:template']).toBe(
        '/fields{?entity,workspace,primary,groups[],workspace.id,workspace.id[]}',
      );
      const paged = await as.get('/fields?entity=shipments&itemsPerPage=2&page=2').expect(200);
      expect(paged.body['hydra:member']).toHaveLength(2);
      expect(paged.body['hydra:view']['hydra:next']).toBeDefined();
    });

    it('narrows custom fields to a workspace', async () => {
      const second = await addWorkspace(app, t);
      await field(t, { code: 'a1' }).expect(201);
      await field(t, { code: 'b1', workspace: `/workspaces/${second}` }).expect(201);
      const as = api(app, { token: t.token });
      const codes = async (q: string) =>
        (await as.get(`/fields?entity=orders&primary=false${q}`).expect(200)).body[
          'hydra:member'
        ].map((f: any) => f.code);
      expect(await codes('')).toEqual(['a1', 'b1']);
      expect(await codes(`&workspace=${second}`)).toEqual(['b1']);
      expect(await codes(`&workspace.id=${t.workspaceId}`)).toEqual(['a1']);
      expect(await codes(`&workspace.id[]=${t.workspaceId}&workspace.id[]=${second}`)).toEqual([
        'a1',
        'b1',
      ]);
      const other = await createTenant(app);
      expect(
        (
          await api(app, { token: other.token }).get(
            `/fields?entity=orders&primary=false&workspace=${second}`,
          )
        ).body['hydra:totalItems'],
      ).toBe(0);
    });
  });

  describe('values', () => {
    it('validates custom field values through the customFields property validator', async () => {
      await field(t, {
        entity: 'shipments',
        code: 'size',
        fieldType: 'select',
        options: ['S', 'M'],
        default: 'S',
      }).expect(201);
      await field(t, {
        entity: 'shipments',
        code: 'contact',
        fieldType: 'email',
        validation: 'required',
      }).expect(201);
      await field(t, {
        entity: 'shipments',
        code: 'erp',
        fieldType: 'text',
        readonly: true,
      }).expect(201);
      const registry = app.get(ResourceRegistry);
      const resource = registry.get(Shipment);
      const validator = app.get(PropertyValidators).get('customFields');
      const run = (values: unknown, operation: 'post' | 'put' = 'post', entity: any = {}) =>
        validator(values, {
          principal: null as never,
          operation,
          resource,
          em: db.manager,
          body: { customFields: values },
          state: undefined,
          nested: {},
          property: { name: 'customFields', column: { databaseName: 'custom_fields' } } as never,
          entity: { workspace: { id: t.workspaceId }, ...entity },
        });

      const ok = await run({ contact: 'a@b.co' });
      expect(ok).toEqual({ violations: [], value: { size: 'S', contact: 'a@b.co' } });
      const bad = await run({ size: 'XL', erp: 'E1', nope: 1 });
      expect(bad.violations.map((v) => [v.propertyPath, v.message])).toEqual([
        ['customFields.nope', 'This field does not exist.'],
        ['customFields.size', 'The value you selected is not a valid choice.'],
        ['customFields.contact', 'This value should not be blank.'],
        ['customFields.erp', 'This field is read-only.'],
      ]);

      const [s] = await db.query(
        `INSERT INTO shipment (workspace_id, tracking_number, custom_fields) VALUES ($1, 'TMVAL1', '{"erp": "E1", "contact": "x@y.co"}') RETURNING id`,
        [t.workspaceId],
      );
      const put = await run({ contact: 'z@y.co', erp: 'E1' }, 'put', {
        id: s.id,
        workspace: undefined,
      });
      expect(put).toEqual({ violations: [], value: { contact: 'z@y.co', erp: 'E1' } });

      const direct = await app.get(CustomFieldValuesService).validate(db.manager, {
        workspaceId: t.workspaceId,
        entity: 'orders',
        values: { anything: 1 },
        operation: 'post',
      });
      expect(direct.violations[0].propertyPath).toBe('customFields.anything');
    });
  });

  describe('fields layouts and entity types', () => {
    const layout = (tenant: Tenant, body: Record<string, unknown> = {}) =>
      api(app, { token: tenant.token }).post('/fields_layouts', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        entity: 'shipments',
        code: 'shipments',
        title: 'Shipment form',
        fields: ['trackingNumber', 'gift_note'],
        ...body,
      });

    it('creates, reads, replaces and deletes layouts of known fields', async () => {
      await field(t, { entity: 'shipments' }).expect(201);
      const res = await layout(t).expect(201);
      expect(res.body).toMatchObject({
        '@id': '/fields_layouts/shipments',
        '@type': 'FieldsLayout',
        code: 'shipments',
        title: 'Shipment form',
        fields: ['trackingNumber', 'gift_note'],
      });
      const as = api(app, { token: t.token });
      expect((await as.get('/fields_layouts').expect(200)).body['hydra:totalItems']).toBe(1);
      await as.get('/fields_layouts/shipments').expect(200);
      const bad = await layout(t, {
        code: 'x',
        fields: ['nope', 'trackingNumber', 'trackingNumber'],
      }).expect(422);
      expect(bad.body.violations.map((v: any) => v.propertyPath)).toEqual([
        'fields[0]',
        'fields[2]',
      ]);
      await layout(t).expect(422);
      const put = await as
        .put('/fields_layouts/shipments', { title: 'Short', fields: ['gift_note'] })
        .expect(200);
      expect(put.body).toMatchObject({ title: 'Short', fields: ['gift_note'] });

      const types = await as.get(`/entity_types?workspace=${t.workspaceId}`).expect(200);
      expect(types.body['hydra:member'].map((m: any) => m['@id'])).toEqual([
        '/entity_types/orders',
        '/entity_types/shipments',
      ]);
      const shipments = await as
        .get(`/entity_types/shipments?workspace=${t.workspaceId}`)
        .expect(200);
      expect(shipments.body).toMatchObject({
        id: 'shipments',
        entity: 'shipments',
        fieldsLayout: ['gift_note'],
      });

      await as.delete('/fields_layouts/shipments').expect(204);
      const fallback = await as
        .get(`/entity_types/shipments?workspace=${t.workspaceId}`)
        .expect(200);
      expect(fallback.body.fieldsLayout[0]).toBe('id');
      expect(fallback.body.fieldsLayout.at(-1)).toBe('gift_note');
      const noWorkspace = await as.get('/entity_types/shipments').expect(200);
      expect(noWorkspace.body.fieldsLayout).not.toContain('gift_note');
      await as.get('/entity_types/planets').expect(404);
      const other = await createTenant(app);
      await api(app, { token: other.token }).get('/fields_layouts/shipments').expect(404);
    });
  });
});
