/**
 * What the console's home page and shipment page say of delivery predictions, attention and
 * carrier performance (src/predictions in the API): pure formatting and links, unit-tested in
 * insights.spec.ts.
 */

/** The API's attention reasons, most urgent first, with what each means to a merchant. */
export const ATTENTION_REASONS = [
  { code: 'exception', label: 'Exception', hint: 'The carrier reports a problem' },
  { code: 'stalled', label: 'Stalled', hint: 'No scan for longer than usual on its lane' },
  { code: 'late', label: 'Late', hint: 'Past the delivery window the customer was shown' },
  { code: 'waiting', label: 'Waiting', hint: 'At a pickup point or after a failed attempt' },
] as const;

export type AttentionCode = (typeof ATTENTION_REASONS)[number]['code'];

/** The console's shipment list with one attention reason as its filter (react-admin's URL). */
export function attentionListHref(code: AttentionCode): string {
  const filter = encodeURIComponent(JSON.stringify({ attention: code }));
  const shown = encodeURIComponent(JSON.stringify({ attention: true }));
  return `#/shipments?filter=${filter}&displayedFilters=${shown}`;
}

/** `deliveryPrediction` as the API renders it on a shipment. */
export interface DeliveryPrediction {
  earliest: string;
  likely: string;
  latest: string;
  confidence: number;
  basis: { kind: 'carrier' | 'history' | 'default'; level?: number; deliveries?: number };
}

/**
 * The window in words: "Tue, Dec 2 – Thu, Dec 4 (most likely Wed, Dec 3)", one day when the
 * bounds fall on the same day, in the given time zone (the browser's by default).
 */
export function windowText(p: DeliveryPrediction, locale?: string, timeZone?: string): string {
  const day = new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone,
  });
  const [earliest, likely, latest] = [p.earliest, p.likely, p.latest].map((d) =>
    day.format(new Date(d)),
  );
  const range = earliest === latest ? earliest : `${earliest} – ${latest}`;
  return likely === earliest && likely === latest ? range : `${range} (most likely ${likely})`;
}

/** Where the window comes from, and how often such windows held. */
export function basisText(p: DeliveryPrediction): string {
  const held = `${Math.round(p.confidence * 100)} % of such windows held`;
  switch (p.basis.kind) {
    case 'history':
      return `Learnt from ${p.basis.deliveries ?? 0} deliveries on this lane; ${held}`;
    case 'carrier':
      return `The carrier's own date; ${held}`;
    default:
      return `Default window (too few deliveries to learn from yet); ${held}`;
  }
}

/** A rate as a percentage, or a dash when there is nothing to divide. */
export function percent(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? '–' : `${Math.round(rate * 100)} %`;
}

/** A p50 / p90 pair of days, one decimal. */
export function days(q: { p50: number | null; p90: number | null } | undefined): string {
  if (!q || q.p50 === null) return '–';
  return `${q.p50.toFixed(1)} / ${q.p90 === null ? '–' : q.p90.toFixed(1)}`;
}

/** The last `n` UTC days up to `today`, as the analytics' `from` and `to`. */
export function lastDays(n: number, today: Date): { from: string; to: string } {
  const to = today.toISOString().slice(0, 10);
  const from = new Date(today.getTime() - (n - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}
