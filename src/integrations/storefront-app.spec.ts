import { chargeStateOf } from './storefront-app';

describe('storefront app charges', () => {
  it('reads a charge of the protocol', () => {
    const charge = {
      id: 'charge_1',
      status: 'active',
      name: 'Pro plan',
      price: '99.00',
      currency: 'USD',
      interval: 'every_30_days',
      billingOn: '2030-01-31',
      trialEndsOn: null,
      test: true,
    };
    expect(chargeStateOf(charge)).toEqual({
      ...charge,
      billingOn: new Date('2030-01-31T00:00:00Z'),
    });
  });

  it('refuses charges without an id or with a status it does not know, and bad dates', () => {
    expect(chargeStateOf({ status: 'active' })).toBeNull();
    expect(chargeStateOf({ id: 'c', status: 'accepted' })).toBeNull();
    expect(chargeStateOf({ id: 42, status: 'active' })).toBeNull();
    expect(chargeStateOf(['c'])).toBeNull();
    expect(chargeStateOf(null)).toBeNull();
    const charge = chargeStateOf({ id: 'c', status: 'frozen', billingOn: 'tomorrow' });
    expect(charge).toMatchObject({ status: 'frozen', billingOn: null, test: false });
    expect(chargeStateOf({ id: 'c', status: 'active', billingOn: '2030-13-45' })?.billingOn).toBe(
      null,
    );
  });
});
