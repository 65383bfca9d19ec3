import { TRACKING_STATUS_CODES } from '../../tracking/statuses';
import { progressOf } from './status-progress';

describe('progressOf', () => {
  const shipped = '2026-01-02T10:00:00+00:00';

  it('places the normal statuses on their step', () => {
    expect(progressOf(null, null)).toEqual({ status: 'unknown', current: 0, exception: null });
    expect(progressOf('pre_transit', null).current).toBe(0);
    expect(progressOf('no_info', shipped).current).toBe(1);
    expect(progressOf('in_transit', shipped)).toEqual({
      status: 'in_transit',
      current: 2,
      exception: null,
    });
    expect(progressOf('delivery_in_progress', shipped).current).toBe(3);
    expect(progressOf('delivered', shipped)).toEqual({
      status: 'delivered',
      current: 4,
      exception: null,
    });
  });

  it('shows exceptions on the step where they happened', () => {
    expect(progressOf('unsuccessful_delivery', shipped)).toEqual({
      status: 'unsuccessful_delivery',
      current: 3,
      exception: { status: 'unsuccessful_delivery', tone: 'alert' },
    });
    expect(progressOf('available_for_pickup', shipped).exception?.tone).toBe('notice');
    expect(progressOf('return_to_sender', shipped).current).toBe(2);
    expect(progressOf('expired', null)).toMatchObject({ current: 0, exception: { tone: 'alert' } });
    expect(progressOf('cancelled', shipped)).toMatchObject({ current: 0 });
  });

  it('knows every status code and ignores unknown ones', () => {
    for (const code of TRACKING_STATUS_CODES) expect(progressOf(code, shipped).status).toBe(code);
    expect(progressOf('teleported', null).status).toBe('unknown');
  });
});
