import fc from 'fast-check';
import { currencyViolations, foreignShipmentViolations, planOrderLinks } from './order-rules';

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
