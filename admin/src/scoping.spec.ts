import { manyReference, offeredFilters, scopedRequest, withRequiredParameters } from './scoping';

const WS = '0b6f5a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b';
const SHIPMENT = '11111111-2222-4333-8444-555555555555';
const get = (path: string) => ({ url: new URL(`http://127.0.0.1:8080${path}`), method: 'GET' });

describe('the console scopes requests to the chosen workspace', () => {
  it('lists nested collections through /workspaces/{id}/…, query kept', () => {
    const out = scopedRequest(get('/shipments?trackingStatus=delivered&page=2'), WS);
    expect(out.url.pathname).toBe(`/workspaces/${WS}/shipments`);
    expect(out.url.search).toBe('?trackingStatus=delivered&page=2');
    expect(scopedRequest(get('/email_notifications'), WS).url.pathname).toBe(
      `/workspaces/${WS}/email_notifications`,
    );
  });

  it('filters the others by workspace.id, unless the caller did', () => {
    expect(scopedRequest(get('/fields'), WS).url.searchParams.get('workspace.id')).toBe(WS);
    const own = scopedRequest(get('/shipment_items?workspace.id=x'), WS);
    expect(own.url.searchParams.getAll('workspace.id')).toEqual(['x']);
    for (const path of ['/order_items', '/tracking_checkpoints'])
      expect(scopedRequest(get(path), WS).url.searchParams.get('workspace.id')).toBe(WS);
  });

  it("gives a list the parameters it cannot go without, keeping the caller's", () => {
    const bare = get('/fields');
    expect(withRequiredParameters(bare.url).searchParams.get('entity')).toBe('shipments');
    expect(bare.url.search).toBe('');
    const orders = withRequiredParameters(get('/fields?entity=orders&page=2').url);
    expect(orders.searchParams.getAll('entity')).toEqual(['orders']);
    expect(withRequiredParameters(get('/shipments').url).search).toBe('');
    expect(withRequiredParameters(get('/fields/code').url).search).toBe('');
  });

  it('leaves items, sub-collections, other methods and unscoped collections alone', () => {
    for (const path of [
      `/shipments/${SHIPMENT}`,
      `/shipments/${SHIPMENT}/checkpoints`,
      '/workspaces',
      '/products',
    ])
      expect(scopedRequest(get(path), WS).url.pathname).toBe(path.split('?')[0]);
    const put = { url: new URL('http://h/shipments'), method: 'PUT', body: '{}' };
    expect(scopedRequest(put, WS)).toBe(put);
  });

  it('adds the workspace IRI to a create that names none', () => {
    const post = { url: new URL('http://h/orders'), method: 'POST', body: '{"orderNumber":"A1"}' };
    expect(JSON.parse(String(scopedRequest(post, WS).body))).toEqual({
      orderNumber: 'A1',
      workspace: `/workspaces/${WS}`,
    });
    const named = { ...post, body: '{"workspace":"/workspaces/other"}' };
    expect(scopedRequest(named, WS)).toBe(named);
    const item = { url: new URL('http://h/order_items'), method: 'POST', body: '{"qty":1}' };
    expect(scopedRequest(item, WS)).toBe(item);
  });

  it('changes nothing without a workspace, or with one that is not an id', () => {
    const req = get('/shipments');
    expect(scopedRequest(req, null)).toBe(req);
    expect(scopedRequest(req, '../x')).toBe(req);
  });
});

describe('related lists', () => {
  it('read checkpoints and order items through their nested routes', () => {
    expect(manyReference('tracking_checkpoints', 'shipment', `/shipments/${SHIPMENT}`)).toEqual({
      resource: `shipments/${SHIPMENT}/checkpoints`,
      filter: {},
    });
    expect(manyReference('order_items', 'order', `/orders/${SHIPMENT}`)).toEqual({
      resource: `orders/${SHIPMENT}/items`,
      filter: {},
    });
  });

  it('filter shipment items by the relation id', () => {
    expect(manyReference('shipment_items', 'shipment', `/shipments/${SHIPMENT}`)).toEqual({
      resource: 'shipment_items',
      filter: { 'shipment.id': SHIPMENT },
    });
  });

  it('answer null for anything else', () => {
    expect(manyReference('orders', 'shipment', `/shipments/${SHIPMENT}`)).toBeNull();
    expect(manyReference('tracking_checkpoints', 'shipment', '/shipments/not-an-id')).toBeNull();
  });
});

describe('list filters', () => {
  it("offers the API's filters but those the workspace switcher sets", () => {
    const mapping = [
      { variable: 'trackingStatus', property: 'trackingStatus', required: false },
      { variable: 'order[createdAt]', property: 'createdAt', required: false },
      { variable: 'workspace.id', property: 'workspace.id', required: false },
      { variable: 'workspace.id[]', property: 'workspace.id', required: false },
      { variable: 'workspace', property: 'workspace', required: false },
      { variable: 'groups[]', property: null, required: false },
    ];
    expect(offeredFilters(mapping).map((m) => m.variable)).toEqual([
      'trackingStatus',
      'order[createdAt]',
    ]);
  });
});
