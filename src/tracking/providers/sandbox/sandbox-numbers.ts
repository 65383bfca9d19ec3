import type { TrackingStatusCode } from '../../statuses';

export const SANDBOX_CARRIER_CODE = 'tm-test';

/** Documented test numbers `TM<3 digits><anything>TM`: the prefix selects the outcome. */
export const SANDBOX_PREFIX_STATUSES: Readonly<Record<string, TrackingStatusCode>> = Object.freeze({
  '418': 'pre_transit',
  '403': 'no_info',
  '102': 'in_transit',
  '204': 'delivery_in_progress',
  '200': 'delivered',
  '410': 'unsuccessful_delivery',
  '404': 'error',
  '500': 'error',
  '503': 'expired',
  '504': 'no_info',
  '202': 'available_for_pickup',
  '100': 'cancelled',
  '302': 'return_to_sender',
  '413': 'transit_limit_exceeded',
});

const SANDBOX_NUMBER = /^TM(\d{3}).*TM$/;

export interface SandboxNumber {
  /** Trimmed and upper-cased: the identity of the number (seed and externalIds). */
  readonly normalized: string;
  readonly prefix: string;
}

/** null when the text is not shaped like a test number (case-insensitive). */
export function parseSandboxNumber(trackingNumber: string): SandboxNumber | null {
  const normalized = trackingNumber.trim().toUpperCase();
  const match = SANDBOX_NUMBER.exec(normalized);
  return match ? { normalized, prefix: match[1] } : null;
}

/** The status the status engine reports for a test number; no_info for unknown prefixes. */
export function sandboxExpectedStatus(trackingNumber: string): TrackingStatusCode {
  const parsed = parseSandboxNumber(trackingNumber);
  return (parsed && SANDBOX_PREFIX_STATUSES[parsed.prefix]) ?? 'no_info';
}
