import type { ResourceMeta } from '../core/resource-meta';
import type { RecordView } from './serialization-groups';
import { shownProperties } from './record-reader';
import { type ApiRecord } from '../core/api-record';

/** A cell a spreadsheet would run as a formula starts with one of these (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal numeral: a spreadsheet reads it as a number, never as a formula. */
const NUMERAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Text that a spreadsheet would evaluate (`=HYPERLINK(...)`, `+cmd|...`, `@SUM(...)`, a
 * leading tab or CR) gets a leading `'`, OWASP's advice, so it is shown as text. Numbers stay
 * numbers: a JS number is never touched, and neither is a string that is a plain numeral
 * (decimal columns arrive as strings, `-12.50`), because a numeral cannot be a formula and a
 * negative amount column must stay numeric for whoever sums it. `-1+2` is not a numeral.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !NUMERAL.test(text) ? `'${text}` : text;
}

/**
 * CSV as API Platform's encoder writes it: nested objects flattened with dots,
 * arrays as `key.0`, `key.1`, booleans 1/0, null empty, references as IRIs.
 * Fields are quoted when they contain a comma, quote, newline, tab or space; text that a
 * spreadsheet would run as a formula is neutralised (neutraliseFormula).
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const s =
    typeof value === 'boolean'
      ? value
        ? '1'
        : '0'
      : typeof value === 'number' || typeof value === 'bigint'
        ? String(value)
        : neutraliseFormula(typeof value === 'object' ? JSON.stringify(value) : String(value));
  return /[,"\r\n\t ]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

export function csvLine(values: unknown[]): string {
  return values.map(csvField).join(',') + '\n';
}

/** Flattens one record into dotted keys; embedded resources lose their JSON-LD keys. */
export function flatten(
  record: ApiRecord,
  prefix = '',
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const [key, value] of Object.entries(record)) {
    if (key.startsWith('@')) continue;
    const name = prefix + key;
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        if (v !== null && typeof v === 'object') flatten(v as ApiRecord, `${name}.${i}.`, out);
        else out[`${name}.${i}`] = v;
      });
    } else if (value !== null && typeof value === 'object') {
      flatten(value as ApiRecord, name + '.', out);
    } else {
      out[name] = value;
    }
  }
  return out;
}

/**
 * Columns of a collection known before the first row, so it can be streamed:
 * from the declaration, with array widths measured beforehand. Free-form JSON
 * properties stay in one column as JSON text.
 */
export function plannedColumns(
  resource: ResourceMeta,
  view: RecordView,
  arrayWidths: Map<string, number>,
  /** Members of an embedded resource (`embed: true`), as the record reader embeds them. */
  embeddedMembers: (target: Function) => string[] = () => ['id', 'code', 'title'],
): Array<{ header: string; get: (r: ApiRecord) => unknown }> {
  const cols: Array<{ header: string; get: (r: ApiRecord) => unknown }> = [];
  for (const prop of shownProperties(resource, view)) {
    if (prop.options.csv === false) continue;
    const name = prop.name;
    if (prop.kind === 'embedded') {
      for (const child of prop.children!.filter((c) => c.readable)) {
        cols.push({
          header: `${name}.${child.name}`,
          get: (r) => (r[name] as ApiRecord | null)?.[child.name],
        });
      }
    } else if (prop.kind === 'object') {
      for (const sub of prop.options.embedProperties ?? embeddedMembers(prop.target!)) {
        cols.push({ header: `${name}.${sub}`, get: (r) => (r[name] as ApiRecord | null)?.[sub] });
      }
    } else if (prop.type === 'array') {
      const width = arrayWidths.get(name) ?? 0;
      for (let i = 0; i < width; i++) {
        cols.push({ header: `${name}.${i}`, get: (r) => (r[name] as unknown[] | null)?.[i] });
      }
    } else {
      cols.push({ header: name, get: (r) => r[name] });
    }
  }
  return cols;
}

export function csvDocument(records: ApiRecord[]): string {
  const flat = records.map((r) => flatten(r));
  const headers: string[] = [];
  const seen = new Set<string>();
  for (const row of flat) {
    for (const k of Object.keys(row)) {
      if (!seen.has(k)) {
        seen.add(k);
        headers.push(k);
      }
    }
  }
  return csvLine(headers) + flat.map((row) => csvLine(headers.map((h) => row[h]))).join('');
}
