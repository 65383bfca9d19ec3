/** Longest wait between two attempts of one delivery. */
export const MAX_RETRY_DELAY_MS = 6 * 3600_000;

/**
 * Delay before the next attempt after `attempts` failed ones: base, 2 x base, 4 x base, ...
 * capped at six hours. No jitter: deliveries of one event already spread over their targets.
 */
export function retryDelayMs(attempts: number, baseSeconds: number): number {
  const exponent = Math.max(0, attempts - 1);
  return Math.min(baseSeconds * 1000 * 2 ** Math.min(exponent, 30), MAX_RETRY_DELAY_MS);
}
