/** Retry-After as delay-seconds or an HTTP date, in ms from `now`; null when absent or invalid. */
export function retryAfterMs(header: string | undefined, now: number): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
