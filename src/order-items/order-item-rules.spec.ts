import type { CatalogueTeams } from '../products/product-store';
import {
  catalogueViolations,
  orderAfterEachNewItem,
  shippedQuantityViolations,
} from './order-item-rules';

describe('catalogueViolations', () => {
  const teams: CatalogueTeams = {
    teamId: 't1',
    productTeam: 't1',
    variantTeam: 't1',
    variantProduct: 'p1',
  };
  const messages = (t: CatalogueTeams, product: string | null, variant: string | null) =>
    catalogueViolations(t, product, variant).map((v) => `${v.propertyPath}: ${v.message}`);

  it('accepts a product and a variant of it, of the order’s team', () => {
    expect(messages(teams, 'p1', 'v1')).toEqual([]);
    expect(messages(teams, 'p1', null)).toEqual([]);
    expect(messages(teams, null, 'v1')).toEqual([]);
    expect(messages({ ...teams, productTeam: null }, null, null)).toEqual([]);
  });

  it('refuses another team’s product or variant, and a variant of another product', () => {
    expect(messages({ ...teams, productTeam: 't2' }, 'p1', null)).toEqual([
      'product: The product must belong to the team of the order.',
    ]);
    expect(messages({ ...teams, variantTeam: 't2' }, 'p1', 'v1')).toEqual([
      'productVariant: The product variant must belong to the team of the order.',
    ]);
    expect(messages(teams, 'p2', 'v1')).toEqual([
      'productVariant: The product variant must be a variant of the product.',
    ]);
    // A missing product reads as no team.
    expect(messages({ ...teams, productTeam: null }, 'gone', null)).toHaveLength(1);
  });
});

describe('shippedQuantityViolations', () => {
  it('refuses a quantity below what shipments carry', () => {
    expect(shippedQuantityViolations(3, 3)).toEqual([]);
    expect(shippedQuantityViolations(0, 0)).toEqual([]);
    expect(shippedQuantityViolations(2, 3)).toEqual([
      expect.objectContaining({
        propertyPath: 'qty',
        message:
          'This value should be greater than or equal to 3, the quantity already in shipments.',
      }),
    ]);
  });
});

describe('orderAfterEachNewItem', () => {
  const order = (items: string[], fulfillmentStatus: string, updatedAt = 't1') => ({
    '@id': '/orders/o',
    items,
    updatedAt,
    fulfillmentStatus,
  });

  it('lists the items so far in the order of the final list', () => {
    const steps = orderAfterEachNewItem(
      order(['/order_items/b'], 'not_fulfilled', 't0'),
      order(['/order_items/a', '/order_items/b', '/order_items/c'], 'not_fulfilled'),
      [
        { iri: '/order_items/c', qty: 1 },
        { iri: '/order_items/a', qty: 2 },
      ],
    );
    expect(steps).toEqual([
      order(['/order_items/b', '/order_items/c'], 'not_fulfilled'),
      order(['/order_items/a', '/order_items/b', '/order_items/c'], 'not_fulfilled'),
    ]);
  });

  it('turns a fulfilled order partial from the first item with a quantity', () => {
    const steps = orderAfterEachNewItem(
      order(['/order_items/a'], 'fulfilled'),
      order(['/order_items/a', '/order_items/b', '/order_items/c'], 'partial'),
      [
        { iri: '/order_items/b', qty: 0 },
        { iri: '/order_items/c', qty: 3 },
      ],
    );
    expect(steps?.map((s) => s.fulfillmentStatus)).toEqual(['fulfilled', 'partial']);
  });

  it('answers null when the last does not come out as the order after them', () => {
    expect(
      orderAfterEachNewItem(
        order([], 'not_fulfilled'),
        order(['/order_items/a', '/order_items/z'], 'not_fulfilled'),
        [{ iri: '/order_items/a', qty: 1 }],
      ),
    ).toBeNull();
    expect(
      orderAfterEachNewItem(order([], 'not_fulfilled'), order(['/order_items/a'], 'partial'), [
        { iri: '/order_items/a', qty: 1 },
      ]),
    ).toBeNull();
  });
});
