import type { ProviderSubscription } from './billing-provider';
import { planOfItems, stateFromProvider, statusOf } from './subscription-state';

const sub = (over: Partial<ProviderSubscription> = {}): ProviderSubscription => ({
  id: 'sub_1',
  customerId: 'cust',
  status: 'active',
  items: [
    { itemPriceId: 'starter-USD-Monthly', quantity: 1, itemType: 'plan' },
    { itemPriceId: 'extra-user-USD-Monthly', quantity: 3, itemType: 'addon' },
  ],
  currentTermEnd: 1_800_000_000,
  trialEnd: null,
  dueInvoicesCount: 0,
  hasScheduledChanges: false,
  hasCoupon: true,
  billingPeriod: 1,
  billingPeriodUnit: 'month',
  ...over,
});

describe('subscription state from the provider', () => {
  it.each([
    ['in_trial', 0, false, 'trialing'],
    ['active', 0, false, 'active'],
    ['non_renewing', 0, false, 'active'],
    ['active', 2, false, 'past_due'],
    ['active', 0, true, 'past_due'],
    ['paused', 0, false, 'cancelled'],
    ['cancelled', 0, false, 'cancelled'],
    ['future', 0, false, 'cancelled'],
  ])('maps %s (due %d, failed %s) to %s', (status, due, failed, expected) => {
    expect(statusOf(sub({ status, dueInvoicesCount: due }), failed)).toBe(expected);
  });

  it('finds the plan and add-ons of the items', () => {
    expect(planOfItems(sub().items)).toEqual({
      plan: expect.objectContaining({ id: 'starter' }),
      addonsQtyByKey: { extra_user: 3 },
    });
    expect(planOfItems([{ itemPriceId: 'legacy', quantity: 1, itemType: 'plan' }])).toBeNull();
  });

  it('snapshots capacities and uses the trial end while in trial', () => {
    const state = stateFromProvider(sub())!;
    expect(state).toMatchObject({
      provider: 'billing_provider',
      planId: 'starter',
      status: 'active',
      providerSubscriptionId: 'sub_1',
      providerCustomerId: 'cust',
      entitlements: { shipments: 1000, workspaces: 2, users: 8 },
      hasCouponCode: true,
      unpaidInvoices: false,
    });
    expect(state.expiresAt).toEqual(new Date(1_800_000_000 * 1000));
    const trial = stateFromProvider(sub({ status: 'in_trial', trialEnd: 1_700_000_000 }))!;
    expect(trial.expiresAt).toEqual(new Date(1_700_000_000 * 1000));
    expect(stateFromProvider(sub({ items: [] }))).toBeNull();
  });
});
