import type { CatalogueTeams } from '../products/product-store';
import { catalogueViolations, shippedQuantityViolations } from './order-item-rules';

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
