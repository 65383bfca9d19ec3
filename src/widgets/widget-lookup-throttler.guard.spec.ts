import { ApiError } from '../hydra/errors/api-errors';
import {
  WIDGET_LOOKUPS_PER_WINDOW,
  WIDGET_LOOKUP_WINDOW_MS,
  WidgetLookupThrottlerGuard,
} from './widget-lookup-throttler.guard';

describe('WidgetLookupThrottlerGuard', () => {
  it('allows a budget per key and window, then answers 429 with Retry-After', () => {
    let now = 1_000_000;
    const guard = new WidgetLookupThrottlerGuard();
    guard.now = () => now;
    for (let i = 0; i < WIDGET_LOOKUPS_PER_WINDOW; i++) guard.hit('w1|1.2.3.4');
    let error: unknown;
    try {
      guard.hit('w1|1.2.3.4');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).headers['Retry-After']).toBe(String(WIDGET_LOOKUP_WINDOW_MS / 1000));
    // Other keys have their own budget; the window resets.
    expect(() => guard.hit('w2|1.2.3.4')).not.toThrow();
    now += WIDGET_LOOKUP_WINDOW_MS;
    expect(() => guard.hit('w1|1.2.3.4')).not.toThrow();
  });
});
