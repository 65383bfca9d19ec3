import { QueryParams } from '../core/query-params';
import { hydraView } from './jsonld';
import { rebuildQuery, rawUrlEncode } from './query-string';

const result = (totalItems: number, page: number, itemsPerPage = 30) => ({
  members: [],
  totalItems,
  pagination: { page, itemsPerPage, offset: (page - 1) * itemsPerPage },
});

describe('hydra:view', () => {
  it('is absent for a single page without parameters', () => {
    expect(hydraView('/shipments', QueryParams.fromUrl('/shipments'), result(3, 1))).toBeNull();
    expect(
      hydraView('/shipments', QueryParams.fromUrl('/shipments?page=1'), result(3, 1)),
    ).toBeNull();
  });

  it('has first/last/next on the first of several pages', () => {
    expect(hydraView('/shipments', QueryParams.fromUrl('/shipments'), result(42, 1))).toEqual({
      '@id': '/shipments?page=1',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/shipments?page=1',
      'hydra:last': '/shipments?page=2',
      'hydra:next': '/shipments?page=2',
    });
  });

  it('has previous on the last page and keeps other parameters first, re-encoded', () => {
    const params = QueryParams.fromUrl(
      '/shipments?page=2&order[createdAt]=desc&address.city=New York',
    );
    expect(hydraView('/shipments', params, result(42, 2))).toEqual({
      '@id': '/shipments?order%5BcreatedAt%5D=desc&address.city=New%20York&page=2',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/shipments?order%5BcreatedAt%5D=desc&address.city=New%20York&page=1',
      'hydra:last': '/shipments?order%5BcreatedAt%5D=desc&address.city=New%20York&page=2',
      'hydra:previous': '/shipments?order%5BcreatedAt%5D=desc&address.city=New%20York&page=1',
    });
  });

  it('has only @id for one page with filters', () => {
    expect(
      hydraView(
        '/shipments',
        QueryParams.fromUrl('/shipments?trackingStatus=delivered'),
        result(1, 1),
      ),
    ).toEqual({
      '@id': '/shipments?trackingStatus=delivered',
      '@type': 'hydra:PartialCollectionView',
    });
  });
});

describe('query string rebuilding', () => {
  it('indexes list parameters like http_build_query and encodes RFC 3986', () => {
    expect(
      rebuildQuery(
        [
          ['s[]', 'a'],
          ['x', 'a/b:c'],
          ['s[]', 'b'],
        ],
        'page',
      ),
    ).toBe('s%5B0%5D=a&s%5B1%5D=b&x=a%2Fb%3Ac');
    expect(rawUrlEncode("it's (ok)*!")).toBe('it%27s%20%28ok%29%2A%21');
  });
});
