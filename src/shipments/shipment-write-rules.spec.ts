import { ViolationCodes } from '../common/errors/api-errors';
import {
  carrierFixed,
  carrierOnPut,
  foreignItemViolations,
  foreignOrderViolations,
  ordersChangedByLinks,
  referencedId,
  trackingNumberChanged,
} from './shipment-write-rules';

const ID = '30000000-0000-4000-8000-000000000001';

describe('carrierOnPut', () => {
  const stored = { trackingNumber: 'N1', originCarrier: 'dhl' };

  it('keeps the stored carrier while the number stays, whatever the body says', () => {
    expect(carrierOnPut(stored, { trackingNumber: 'N1', originCarrier: 'ups' }, true)).toBe('dhl');
  });

  it('identifies a new number again unless the body names the carrier', () => {
    expect(carrierOnPut(stored, { trackingNumber: 'N2', originCarrier: 'dhl' }, false)).toBeNull();
    expect(carrierOnPut(stored, { trackingNumber: 'N2', originCarrier: 'ups' }, true)).toBe('ups');
  });

  it('takes the given carrier when none was stored', () => {
    const none = { trackingNumber: 'N1', originCarrier: null };
    expect(carrierOnPut(none, { trackingNumber: 'N1', originCarrier: 'ups' }, true)).toBe('ups');
  });
});

describe('carrierFixed', () => {
  it('is true only on a PUT that keeps both the number and its stored carrier', () => {
    const stored = { trackingNumber: 'N1', originCarrier: 'dhl' };
    expect(carrierFixed(stored, { trackingNumber: 'N1', originCarrier: 'dhl' })).toBe(true);
    expect(carrierFixed(stored, { trackingNumber: 'N2', originCarrier: 'dhl' })).toBe(false);
    expect(carrierFixed(stored, { trackingNumber: 'N1', originCarrier: null })).toBe(false);
    expect(carrierFixed(null, { trackingNumber: 'N1', originCarrier: 'dhl' })).toBe(false);
    const unknown = { trackingNumber: 'N1', originCarrier: null };
    expect(carrierFixed(unknown, { trackingNumber: 'N1', originCarrier: null })).toBe(false);
  });
});

describe('trackingNumberChanged', () => {
  it('is a create with a number, or a PUT that sets, changes or removes it', () => {
    expect(trackingNumberChanged(null, 'N1')).toBe(true);
    expect(trackingNumberChanged(null, null)).toBe(false);
    const stored = { trackingNumber: 'N1', originCarrier: null };
    expect(trackingNumberChanged(stored, 'N1')).toBe(false);
    expect(trackingNumberChanged(stored, 'N2')).toBe(true);
    expect(trackingNumberChanged(stored, null)).toBe(true);
  });
});

describe('foreignOrderViolations and foreignItemViolations', () => {
  it('name each order not of the workspace, unknown ones included, at its index', () => {
    const workspaces = new Map([
      ['o1', 'w1'],
      ['o2', 'w2'],
    ]);
    expect(foreignOrderViolations(['o1', 'o2', 'o3'], workspaces, 'w1')).toEqual([
      {
        propertyPath: 'orders[1]',
        message: 'The order must belong to the workspace of the shipment.',
        code: ViolationCodes.invalid,
      },
      expect.objectContaining({ propertyPath: 'orders[2]' }),
    ]);
  });

  it("name each item not already the shipment's, every one on a create", () => {
    const owners = new Map([
      ['i1', 's1'],
      ['i2', 's2'],
    ]);
    expect(foreignItemViolations(['i1', 'i2'], owners, 's1').map((v) => v.propertyPath)).toEqual([
      'shipmentItems[1]',
    ]);
    expect(foreignItemViolations(['i1'], owners, undefined)).toHaveLength(1);
  });
});

describe('ordersChangedByLinks', () => {
  it('is the orders linked or unlinked', () => {
    const ids = ordersChangedByLinks({
      before: ['a', 'b'],
      after: ['b', 'c'],
      storedNumber: 'N1',
      trackingNumber: 'N2',
    });
    expect([...ids].sort()).toEqual(['a', 'c']);
  });

  it('adds every linked order when the tracking number comes or goes on a PUT', () => {
    const base = { before: ['a', 'b'], after: ['b'] };
    expect([...ordersChangedByLinks({ ...base, storedNumber: null, trackingNumber: 'N' })]).toEqual(
      ['a', 'b'],
    );
    expect([...ordersChangedByLinks({ ...base, storedNumber: 'N', trackingNumber: null })]).toEqual(
      ['a', 'b'],
    );
    expect([...ordersChangedByLinks({ ...base, trackingNumber: 'N' })]).toEqual(['a']);
  });
});

describe('referencedId', () => {
  it('reads an IRI or an object with @id, else null', () => {
    expect(referencedId(`/order_items/${ID}`)).toBe(ID);
    expect(referencedId({ '@id': `/order_items/${ID}` })).toBe(ID);
    expect(referencedId(42)).toBeNull();
    expect(referencedId(null)).toBeNull();
  });
});
