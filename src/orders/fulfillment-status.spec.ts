import { fulfillmentStatusOf } from './fulfillment-status';

describe('fulfillmentStatusOf', () => {
  it('is not_fulfilled when nothing is shipped or there are no items', () => {
    expect(fulfillmentStatusOf([])).toBe('not_fulfilled');
    expect(fulfillmentStatusOf([{ qty: 2, fulfilledQty: 0 }])).toBe('not_fulfilled');
    expect(fulfillmentStatusOf([{ qty: 0, fulfilledQty: 0 }])).toBe('not_fulfilled');
  });

  it('is partial when something but not everything is shipped', () => {
    expect(fulfillmentStatusOf([{ qty: 2, fulfilledQty: 1 }])).toBe('partial');
    expect(
      fulfillmentStatusOf([
        { qty: 1, fulfilledQty: 1 },
        { qty: 1, fulfilledQty: 0 },
      ]),
    ).toBe('partial');
  });

  it('is fulfilled when every item is shipped in full', () => {
    expect(
      fulfillmentStatusOf([
        { qty: 2, fulfilledQty: 2 },
        { qty: 0, fulfilledQty: 0 },
      ]),
    ).toBe('fulfilled');
  });
});
