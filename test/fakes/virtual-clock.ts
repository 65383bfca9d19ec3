import type { StoreClock } from '../../src/store-sync/transport/store-http';

/**
 * Time shared by a store client and its fake, advanced by the client's waits instead of
 * passing: a spec sees the waits a rate limit asks for (`slept`) without spending them, and a
 * fake's bucket refills by exactly what the client waited.
 */
export interface VirtualClock extends StoreClock {
  readonly slept: number[];
  advance(ms: number): void;
}

export function virtualClock(start = Date.parse('2024-06-01T12:00:00Z')): VirtualClock {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    advance: (ms) => {
      now += ms;
    },
  };
}
