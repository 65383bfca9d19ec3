import { QueryParams } from '../core/query-params';
import { collectionView, itemGroupOf, SerializationGroupsParameter } from './serialization-groups';

describe('serialization groups', () => {
  const params = (query: string) => QueryParams.fromUrl(`/orders?${query}`);

  it('names the item group after the resource', () => {
    expect(itemGroupOf('Carrier')).toBe('getCarrier');
  });

  it('reads the collection view unless groups[] names the item group', () => {
    expect(collectionView('getOrder', params(''), false)).toBe('list');
    expect(collectionView('getOrder', params('groups[]=getOrder'), false)).toBe('whole');
    expect(collectionView('getOrder', params('groups%5B1%5D=getOrder'), false)).toBe('whole');
    expect(collectionView('getOrder', params('groups[]=getorder&groups=getOrder'), false)).toBe(
      'list',
    );
  });

  it('reads whole records on nested routes and for resources without item-only properties', () => {
    expect(collectionView('getOrder', params(''), true)).toBe('whole');
    expect(collectionView(null, params(''), false)).toBe('whole');
  });

  it('documents groups[] with the item group and what it adds', () => {
    const [variable] = new SerializationGroupsParameter(
      'getOrder',
      ['shipments'],
      '/orders',
    ).describe();
    expect(variable).toMatchObject({ variable: 'groups[]', property: null, required: false });
    expect(variable.description).toContain('`getOrder`');
    expect(variable.description).toContain('`shipments`');
    expect(variable.description).toContain('/orders');
  });
});
