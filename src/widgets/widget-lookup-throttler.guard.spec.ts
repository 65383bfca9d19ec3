import { ThrottlerStorageService } from '@nestjs/throttler';
import { ApiError } from '../common/errors/api-errors';
import {
  WIDGET_LOOKUPS_PER_WINDOW,
  WIDGET_LOOKUP_WINDOW_MS,
  WidgetLookupThrottlerGuard,
} from './widget-lookup-throttler.guard';

describe('WidgetLookupThrottlerGuard', () => {
  // The in-memory storage (RATE_LIMIT_STORE=memory) reads Date.now().
  let now = 1_000_000;
  const storage = new ThrottlerStorageService();
  beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => storage.onApplicationShutdown());

  it('allows a budget per key and window, then answers 429 with Retry-After', async () => {
    const guard = new WidgetLookupThrottlerGuard(storage);
    for (let i = 0; i < WIDGET_LOOKUPS_PER_WINDOW; i++) await guard.hit('w1|1.2.3.4');
    let error: unknown;
    try {
      await guard.hit('w1|1.2.3.4');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).headers['Retry-After']).toBe(String(WIDGET_LOOKUP_WINDOW_MS / 1000));
    // Other keys have their own budget; the window resets.
    await expect(guard.hit('w2|1.2.3.4')).resolves.toBeUndefined();
    now += WIDGET_LOOKUP_WINDOW_MS;
    await expect(guard.hit('w1|1.2.3.4')).resolves.toBeUndefined();
  });
});
