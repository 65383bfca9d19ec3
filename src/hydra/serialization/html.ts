import type { ApiRecord } from '../core/api-record';
import { flatten } from './csv';

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const s = String(value);
  return s.startsWith('/') && /^\/[a-z_]+\/[0-9a-f-]{36}$/.test(s)
    ? `<a href="${escape(s)}">${escape(s)}</a>`
    : escape(s);
}

/** A readable page for browsers: one table of the records, with links for IRIs. */
export function htmlDocument(title: string, records: ApiRecord[], totalItems?: number): string {
  const flat = records.map((r) => flatten(r));
  const headers: string[] = [];
  for (const row of flat)
    for (const k of Object.keys(row)) if (!headers.includes(k)) headers.push(k);
  const head = headers.map((h) => `<th>${escape(h)}</th>`).join('');
  const body = flat
    .map((row) => `<tr>${headers.map((h) => `<td>${cell(row[h])}</td>`).join('')}</tr>`)
    .join('\n');
  const total = totalItems === undefined ? '' : `<p>${totalItems} item(s)</p>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;font-size:.9rem}th{background:#f4f4f4}</style>
</head><body><h1>${escape(title)}</h1>${total}
<table><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table><p><a href="/docs">API documentation</a></p></body></html>`;
}
