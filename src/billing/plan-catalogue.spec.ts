import {
  ADDONS,
  ENTITLEMENT_KEYS,
  PLANS,
  capacitiesOf,
  isDowngrade,
  planById,
  planByProviderPriceId,
  priceOf,
} from './plan-catalogue';

describe('plan catalogue', () => {
  it('gives every plan every entitlement and every paid plan a provider price', () => {
    for (const plan of Object.values(PLANS)) {
      expect(Object.keys(plan.capacities).sort()).toEqual([...ENTITLEMENT_KEYS].sort());
      expect(plan.providerPriceId === null).toBe(plan.type === 'free');
      if (plan.providerPriceId) expect(planByProviderPriceId(plan.providerPriceId)).toBe(plan);
    }
    const priceIds = [...Object.values(PLANS), ...Object.values(ADDONS)]
      .map((p) => p.providerPriceId)
      .filter(Boolean);
    expect(new Set(priceIds).size).toBe(priceIds.length);
  });

  it('adds add-on capacity and price per unit, ignoring unknown keys and bad quantities', () => {
    const pro = PLANS.pro;
    expect(capacitiesOf(pro, { extra_workspace: 2, extra_shipments: 1, nope: 5 })).toEqual({
      shipments: 11000,
      workspaces: 12,
      users: 20,
    });
    expect(capacitiesOf(pro, { extra_user: -1, extra_workspace: 1.5 })).toEqual(pro.capacities);
    expect(priceOf(pro, { extra_workspace: 2 })).toBe(9900 + 2 * 900);
  });

  it('knows downgrades', () => {
    expect(isDowngrade(PLANS.pro, PLANS.starter)).toBe(true);
    expect(isDowngrade(PLANS.pro, PLANS.business)).toBe(false);
    expect(isDowngrade(PLANS.pro, PLANS.pro)).toBe(false);
  });

  it('does not take inherited names for plans', () => {
    expect(planById('constructor')).toBeUndefined();
    expect(planById('toString')).toBeUndefined();
  });
});
