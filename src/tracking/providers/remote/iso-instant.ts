const ISO = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date or date-time as carriers' own APIs send them (FedEx, USPS, DHL): an offset
 * is kept, so the instant is right whatever the server's zone. A time without an offset is read
 * as UTC (never as the server's local time); a bare date is midnight UTC. Anything else: null.
 */
export function isoInstant(value: string | null | undefined): Date | null {
  const m = ISO.exec((value ?? '').trim());
  if (!m) return null;
  const time = m[2] ?? '00:00:00';
  const zone = m[3] ? m[3].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2').toUpperCase() : 'Z';
  const result = new Date(`${m[1]}T${time}${zone}`);
  return Number.isNaN(result.getTime()) ? null : result;
}
