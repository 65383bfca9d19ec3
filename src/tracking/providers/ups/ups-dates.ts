/**
 * UPS dates: `YYYYMMDD` plus `HHMMSS` local time, with the offset given apart (Track API
 * `gmtOffset` "-05:00") or the same instant in GMT (`gmtDate` + `gmtTime`). GMT times may lose
 * their leading zero ("74700" is 07:47:00, official example), so times are left-padded.
 */

function ymd(date: string | null | undefined): [string, string, string] | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec((date ?? '').trim());
  return m ? [m[1], m[2], m[3]] : null;
}

function hms(time: string | null | undefined): [string, string, string] | null {
  const digits = (time ?? '').trim().replace(/:/g, '');
  if (!/^\d{1,6}$/.test(digits)) return null;
  const padded = digits.padStart(6, '0');
  return [padded.slice(0, 2), padded.slice(2, 4), padded.slice(4, 6)];
}

function offset(value: string | null | undefined): string | null {
  const m = /^([+-])(\d{1,2}):?(\d{2})?$/.exec((value ?? '').trim());
  return m ? `${m[1]}${m[2].padStart(2, '0')}:${m[3] ?? '00'}` : null;
}

function instant(date: string | null | undefined, time: string | null | undefined, zone: string) {
  const d = ymd(date);
  const t = hms(time);
  if (!d || !t) return null;
  const result = new Date(`${d.join('-')}T${t.join(':')}${zone}`);
  return Number.isNaN(result.getTime()) ? null : result;
}

export interface UpsWhen {
  readonly date?: string | null;
  readonly time?: string | null;
  readonly gmtDate?: string | null;
  readonly gmtTime?: string | null;
  readonly gmtOffset?: string | null;
}

/**
 * The instant of an activity: local date and time at their offset, else the GMT date and time,
 * else (no zone at all) the local time read as UTC. Null when no date can be read.
 */
export function upsInstant(when: UpsWhen): Date | null {
  const zone = offset(when.gmtOffset);
  return (
    (zone ? instant(when.date, when.time, zone) : null) ??
    instant(when.gmtDate, when.gmtTime, 'Z') ??
    instant(when.date, when.time ?? '000000', 'Z')
  );
}

/** A calendar date (delivery dates carry no time) as midnight UTC of that day. */
export function upsDay(date: string | null | undefined): Date | null {
  return instant(date, '000000', 'Z');
}

/** `YYYYMMDD` + `HHMMSS` normalised, the local-time part of a checkpoint's stable id. */
export function upsLocalStamp(date: string | null | undefined, time: string | null | undefined) {
  const d = ymd(date);
  const t = hms(time);
  return d ? `${d.join('')}T${(t ?? ['00', '00', '00']).join('')}` : null;
}
