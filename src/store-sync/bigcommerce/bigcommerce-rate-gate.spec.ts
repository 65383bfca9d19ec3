import type { StoreResponse } from '../transport/store-http';
import { BigCommerceRateGate } from './bigcommerce-rate-gate';

const answer = (status: number, headers: Record<string, string>): StoreResponse => ({
  status,
  headers,
  body: null,
});

describe('BigCommerceRateGate', () => {
  it('lets requests go while the window has some left', () => {
    const gate = new BigCommerceRateGate();
    gate.observe(
      answer(200, { 'x-rate-limit-requests-left': '3', 'x-rate-limit-time-reset-ms': '9000' }),
      0,
    );
    expect(gate.delayBeforeSend(0)).toBe(0);
  });

  it('holds the next request until the window resets once none is left', () => {
    const gate = new BigCommerceRateGate();
    gate.observe(
      answer(200, { 'x-rate-limit-requests-left': '0', 'x-rate-limit-time-reset-ms': '9000' }),
      1000,
    );
    expect(gate.delayBeforeSend(1000)).toBe(9000);
    expect(gate.delayBeforeSend(4000)).toBe(6000);
    expect(gate.delayBeforeSend(10_000)).toBe(0);
  });

  it('waits the reset after a 429, else Retry-After, else a default', () => {
    const gate = new BigCommerceRateGate();
    expect(gate.delayAfter429(answer(429, { 'x-rate-limit-time-reset-ms': '1234' }), 0)).toBe(1234);
    expect(gate.delayAfter429(answer(429, { 'retry-after': '2' }), 0)).toBe(2000);
    expect(gate.delayAfter429(answer(429, {}), 0)).toBe(5000);
    expect(gate.delayBeforeSend(0)).toBe(5000);
  });

  it('leaves the last requests of a window to those already running', () => {
    const gate = new BigCommerceRateGate(3);
    gate.observe(
      answer(200, { 'x-rate-limit-requests-left': '4', 'x-rate-limit-time-reset-ms': '500' }),
      0,
    );
    expect(gate.delayBeforeSend(0)).toBe(0);
    gate.observe(
      answer(200, { 'x-rate-limit-requests-left': '3', 'x-rate-limit-time-reset-ms': '400' }),
      100,
    );
    expect(gate.delayBeforeSend(100)).toBe(400);
  });

  it('ignores headers it cannot read', () => {
    const gate = new BigCommerceRateGate();
    gate.observe(
      answer(200, { 'x-rate-limit-requests-left': '0', 'x-rate-limit-time-reset-ms': 'soon' }),
      0,
    );
    expect(gate.delayBeforeSend(0)).toBe(0);
  });
});
