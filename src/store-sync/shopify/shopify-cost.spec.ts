import {
  INITIAL_ORDER_PAGE,
  orderPageSize,
  readQueryCost,
  ShopifyCostBucket,
  type ThrottleStatus,
} from './shopify-cost';

const standard: ThrottleStatus = {
  maximumAvailable: 1000,
  currentlyAvailable: 1000,
  restoreRate: 100,
};

describe('readQueryCost', () => {
  it('reads extensions.cost', () => {
    expect(
      readQueryCost({
        cost: {
          requestedQueryCost: 752,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 1000.0, currentlyAvailable: 130, restoreRate: 100.0 },
        },
      }),
    ).toEqual({
      requested: 752,
      actual: null,
      throttle: { maximumAvailable: 1000, currentlyAvailable: 130, restoreRate: 100 },
    });
  });

  it('answers null without a cost, and no bucket without a usable status', () => {
    expect(readQueryCost(undefined)).toBeNull();
    expect(readQueryCost({})).toBeNull();
    expect(
      readQueryCost({ cost: { requestedQueryCost: 12, throttleStatus: { restoreRate: 0 } } }),
    ).toEqual({
      requested: 12,
      actual: null,
      throttle: null,
    });
  });
});

describe('ShopifyCostBucket', () => {
  it('waits nothing before it knows the bucket', () => {
    expect(new ShopifyCostBucket().delayFor(999, 0)).toBe(0);
  });

  it('waits until the restore rate has refilled the missing points', () => {
    const bucket = new ShopifyCostBucket();
    bucket.observe({ ...standard, currentlyAvailable: 130 }, 10_000);
    expect(bucket.delayFor(752, 10_000)).toBe(6220);
    // Half a second later, 50 points more are there.
    expect(bucket.delayFor(752, 10_500)).toBe(5720);
    expect(bucket.delayFor(100, 10_000)).toBe(0);
    expect(bucket.available(30_000)).toBe(1000);
  });

  it('never waits for more than the bucket can hold', () => {
    const bucket = new ShopifyCostBucket();
    bucket.observe({ ...standard, currentlyAvailable: 0 }, 0);
    expect(bucket.delayFor(5000, 0)).toBe(10_000);
  });
});

describe('orderPageSize', () => {
  it('starts small until a cost is known', () => {
    expect(orderPageSize(null, null)).toBe(INITIAL_ORDER_PAGE);
  });

  it('fills the single-query limit on the Standard plan', () => {
    // 10 orders cost 800: 80 per order, 12 fit in 1000.
    expect(orderPageSize({ first: 10, requested: 800 }, standard)).toBe(12);
  });

  it('stays within a small bucket and within ten seconds of refill', () => {
    expect(
      orderPageSize(
        { first: 10, requested: 800 },
        { maximumAvailable: 400, currentlyAvailable: 0, restoreRate: 100 },
      ),
    ).toBe(5);
    expect(
      orderPageSize(
        { first: 10, requested: 800 },
        { maximumAvailable: 1000, currentlyAvailable: 0, restoreRate: 20 },
      ),
    ).toBe(2);
  });

  it('keeps within a single-query limit the shop named', () => {
    expect(orderPageSize({ first: 10, requested: 940 }, standard, 500)).toBe(5);
  });

  it('takes at least one order and at most 250', () => {
    expect(orderPageSize({ first: 1, requested: 5000 }, standard)).toBe(1);
    expect(orderPageSize({ first: 250, requested: 250 }, null)).toBe(250);
  });
});
