import fc from 'fast-check';
import { completeShipmentOrders, planShipmentOrders } from './shipment-orders';

const o = (id: string, orderNumber: string | null = id.toUpperCase()) => ({ id, orderNumber });

describe('planShipmentOrders', () => {
  it('keeps everything when neither list is given', () => {
    expect(planShipmentOrders({ existingLinks: [o('a')], existingNumbers: ['A', 'X'] })).toEqual({
      orders: [o('a')],
      numbers: ['A', 'X'],
    });
  });

  it('replaces the links with given orders and drops the numbers of unlinked ones', () => {
    expect(
      planShipmentOrders({
        existingLinks: [o('a'), o('b')],
        existingNumbers: ['A', 'B', 'X'],
        givenOrders: [o('b'), o('c')],
      }),
    ).toEqual({ orders: [o('b'), o('c')], numbers: ['B', 'X'] });
  });

  it('unlinks orders whose number the given numbers drop, keeping unnumbered links', () => {
    expect(
      planShipmentOrders({
        existingLinks: [o('a'), o('b'), o('n', null)],
        existingNumbers: ['A', 'B'],
        givenNumbers: ['B', 'Y'],
      }),
    ).toEqual({ orders: [o('b'), o('n', null)], numbers: ['B', 'Y'] });
  });

  it('takes both lists as given when both are sent', () => {
    expect(
      planShipmentOrders({
        existingLinks: [o('a')],
        existingNumbers: ['A'],
        givenOrders: [o('c'), o('c')],
        givenNumbers: ['Z', 'Z'],
      }),
    ).toEqual({ orders: [o('c')], numbers: ['Z'] });
  });
});

describe('completeShipmentOrders', () => {
  it('links orders matching the numbers and carries every linked number', () => {
    expect(
      completeShipmentOrders({ orders: [o('c')], numbers: ['Z'] }, [o('z', 'Z'), o('c')]),
    ).toEqual({ orders: [o('c'), o('z', 'Z')], numbers: ['Z', 'C'] });
  });

  it('always ends consistent: every linked order number is carried, no duplicates', () => {
    const ref = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd'),
      orderNumber: fc.option(fc.constantFrom('A', 'B', 'C', 'D'), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(ref),
        fc.array(fc.constantFrom('A', 'B', 'X')),
        fc.option(fc.array(ref), { nil: undefined }),
        fc.option(fc.array(fc.constantFrom('A', 'B', 'C', 'Y')), { nil: undefined }),
        fc.array(ref),
        (existingLinks, existingNumbers, givenOrders, givenNumbers, matching) => {
          const plan = planShipmentOrders({
            existingLinks,
            existingNumbers,
            givenOrders,
            givenNumbers,
          });
          const done = completeShipmentOrders(plan, matching);
          for (const order of done.orders) {
            if (order.orderNumber) expect(done.numbers).toContain(order.orderNumber);
          }
          expect(new Set(done.numbers).size).toBe(done.numbers.length);
          expect(new Set(done.orders.map((x) => x.id)).size).toBe(done.orders.length);
        },
      ),
    );
  });
});
