import {
  TRACKING_STATUS_CODES,
  TRACKING_STATUSES,
  findTrackingStatus,
  impliesShipped,
  isActive,
  isFinal,
  isPreShipment,
  isTrackingStatusCode,
  trackingStatusPhase,
} from './tracking-statuses';

describe('tracking statuses catalogue', () => {
  it('lists the twelve codes of the spec once each, with a title and a description', () => {
    expect(TRACKING_STATUSES.map((s) => s.code)).toEqual([...TRACKING_STATUS_CODES]);
    expect(new Set(TRACKING_STATUS_CODES).size).toBe(12);
    for (const s of TRACKING_STATUSES) {
      expect(Object.keys(s).sort()).toEqual(['code', 'description', 'title']);
      expect(s.title.length).toBeGreaterThan(0);
      expect(s.description?.length).toBeGreaterThan(0);
    }
  });

  it('finds a status by code and recognises codes', () => {
    expect(findTrackingStatus('delivered')?.title).toBe('Delivered');
    expect(findTrackingStatus('lost')).toBeUndefined();
    expect(isTrackingStatusCode('in_transit')).toBe(true);
    expect(isTrackingStatusCode('IN_TRANSIT')).toBe(false);
    expect(isTrackingStatusCode(null)).toBe(false);
  });

  it('puts every code in exactly one phase', () => {
    for (const code of TRACKING_STATUS_CODES) {
      const flags = [isFinal(code), isPreShipment(code), isActive(code)].filter(Boolean);
      expect(flags).toHaveLength(1);
    }
    expect(TRACKING_STATUS_CODES.filter(isFinal).sort()).toEqual(
      ['cancelled', 'delivered', 'error', 'expired', 'return_to_sender'].sort(),
    );
    expect(TRACKING_STATUS_CODES.filter(isPreShipment).sort()).toEqual(['no_info', 'pre_transit']);
    expect(TRACKING_STATUS_CODES.filter(isActive).sort()).toEqual(
      [
        'available_for_pickup',
        'delivery_in_progress',
        'in_transit',
        'transit_limit_exceeded',
        'unsuccessful_delivery',
      ].sort(),
    );
  });

  it('treats "no status" as pre-shipment', () => {
    expect(trackingStatusPhase(null)).toBe('pre_shipment');
    expect(isPreShipment(null)).toBe(true);
    expect(isFinal(null)).toBe(false);
    expect(isActive(null)).toBe(false);
  });

  it('knows which statuses prove the parcel was shipped', () => {
    expect(TRACKING_STATUS_CODES.filter(impliesShipped).sort()).toEqual(
      [
        'available_for_pickup',
        'delivered',
        'delivery_in_progress',
        'in_transit',
        'return_to_sender',
        'transit_limit_exceeded',
        'unsuccessful_delivery',
      ].sort(),
    );
  });
});
