import fc from 'fast-check';
import {
  currencyViolations,
  foreignShipmentViolations,
  orderAfterEachShipment,
  planOrderLinks,
} from './order-rules';

describe('planOrderLinks', () => {
  it('keeps the links when no shipments are given, adding those carrying the number', () => {
    expect(planOrderLinks(['a', 'b'], undefined, ['c', 'a'])).toEqual({
      wanted: ['a', 'b', 'c'],
      unlinked: [],
      linked: ['c'],
    });
  });

  it('replaces the links with the given shipments', () => {
    expect(planOrderLinks(['a', 'b'], ['b', 'c'], [])).toEqual({
      wanted: ['b', 'c'],
      unlinked: ['a'],
      linked: ['c'],
    });
    expect(planOrderLinks(['a'], [], [])).toEqual({ wanted: [], unlinked: ['a'], linked: [] });
  });

  it('links exactly what is wanted: unlinked and linked are the difference both ways', () => {
    const ids = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'));
    fc.assert(
      fc.property(ids, fc.option(ids, { nil: undefined }), ids, (existing, given, carrying) => {
        const plan = planOrderLinks(existing, given, carrying);
        const after = new Set([
          ...existing.filter((id) => !plan.unlinked.includes(id)),
          ...plan.linked,
        ]);
        expect([...after].sort()).toEqual([...plan.wanted].sort());
        for (const id of carrying) expect(plan.wanted).toContain(id);
        expect(new Set(plan.wanted).size).toBe(plan.wanted.length);
      }),
    );
  });
});

describe('foreignShipmentViolations', () => {
  it('names each shipment of another workspace, or missing, by its index', () => {
    const owners = new Map([
      ['s1', 'w1'],
      ['s2', 'w2'],
    ]);
    expect(
      foreignShipmentViolations(['s1', 's2', 's3'], owners, 'w1').map((v) => v.propertyPath),
    ).toEqual(['shipments[1]', 'shipments[2]']);
    expect(foreignShipmentViolations(['s1'], owners, 'w1')).toEqual([]);
  });
});

describe('currencyViolations', () => {
  it('accepts ISO 4217 codes only', () => {
    expect(currencyViolations('EUR')).toEqual([]);
    expect(currencyViolations('USD')).toEqual([]);
    expect(currencyViolations('EURO')).toHaveLength(1);
    expect(currencyViolations('eur')).toHaveLength(1);
  });
});

describe('orderAfterEachShipment', () => {
  const order = (over: Record<string, unknown>) => ({
    '@id': '/orders/o',
    items: ['/order_items/a', '/order_items/b'],
    shipments: [] as string[],
    fulfillmentStatus: 'not_fulfilled',
    shipmentsWithoutTrackingCount: 0,
    updatedAt: 'T0',
    ...over,
  });
  const lines = [
    {
      qty: 2,
      shippedBy: [
        { shipment: '/shipments/s1', qty: 1 },
        { shipment: '/shipments/s2', qty: 1 },
      ],
    },
    { qty: 1, shippedBy: [{ shipment: '/shipments/s2', qty: 1 }] },
  ];

  it('gives the order after each shipment: listed, fulfilled, counted, dated', () => {
    const before = order({});
    const after = order({
      shipments: ['/shipments/s1', '/shipments/s2', '/shipments/s3'],
      fulfillmentStatus: 'fulfilled',
      shipmentsWithoutTrackingCount: 1,
      updatedAt: 'T1',
    });
    const steps = [
      { iri: '/shipments/s2', linked: true, untracked: false },
      { iri: '/shipments/s3', linked: true, untracked: true },
      { iri: '/shipments/s1', linked: true, untracked: false },
    ];
    expect(orderAfterEachShipment(before, after, steps, lines)).toEqual([
      order({
        shipments: ['/shipments/s2'],
        fulfillmentStatus: 'partial',
        updatedAt: 'T1',
      }),
      order({
        shipments: ['/shipments/s2', '/shipments/s3'],
        fulfillmentStatus: 'partial',
        shipmentsWithoutTrackingCount: 1,
        updatedAt: 'T1',
      }),
      after,
    ]);
  });

  it('dates the order only from the first shipment that moves its aggregates', () => {
    const before = order({ updatedAt: 'T0' });
    const after = order({
      shipments: ['/shipments/s1', '/shipments/s4'],
      fulfillmentStatus: 'partial',
      updatedAt: 'T1',
    });
    const steps = [
      // A link alone (a tracked parcel shipping nothing) changes the list, not the row.
      { iri: '/shipments/s4', linked: true, untracked: false },
      { iri: '/shipments/s1', linked: true, untracked: false },
    ];
    const states = orderAfterEachShipment(before, after, steps, [
      { qty: 2, shippedBy: [{ shipment: '/shipments/s1', qty: 1 }] },
    ]);
    expect(states?.map((s) => [s.shipments, s.fulfillmentStatus, s.updatedAt])).toEqual([
      [['/shipments/s4'], 'not_fulfilled', 'T0'],
      [['/shipments/s1', '/shipments/s4'], 'partial', 'T1'],
    ]);
  });

  it('is null when the shipments do not explain the change', () => {
    const before = order({});
    // Another field moved (a change this rule does not know of).
    expect(
      orderAfterEachShipment(
        before,
        order({ shipments: ['/shipments/s1'], email: 'x' }),
        [{ iri: '/shipments/s1', linked: true, untracked: false }],
        [],
      ),
    ).toBeNull();
    // A shipment written before these, not among them, is counted already.
    expect(
      orderAfterEachShipment(
        before,
        order({ shipments: ['/shipments/s1', '/shipments/s9'] }),
        [{ iri: '/shipments/s1', linked: true, untracked: false }],
        [],
      ),
    ).toBeNull();
  });
});
