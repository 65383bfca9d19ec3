export type Format = 'jsonld' | 'json' | 'csv' | 'html';

export const MEDIA_TYPES: Record<Format, string> = {
  jsonld: 'application/ld+json',
  json: 'application/json',
  csv: 'text/csv',
  html: 'text/html',
};

const BY_MEDIA: Record<string, Format> = {
  'application/ld+json': 'jsonld',
  'application/json': 'json',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/problem+json': 'json',
};

const ALL_FORMATS: readonly Format[] = ['jsonld', 'json', 'csv', 'html'];
/** Answers per Accept header (clients send a handful of distinct ones), for the full offer. */
const negotiated = new Map<string, Format | null>();

/** Picks the response format from Accept (quality values, wildcards); null means 406. */
export function negotiateFormat(
  accept: string | undefined,
  offered: readonly Format[] = ALL_FORMATS,
): Format | null {
  if (offered !== ALL_FORMATS || accept === undefined) return negotiate(accept, offered);
  let format = negotiated.get(accept);
  if (format === undefined) {
    format = negotiate(accept, offered);
    if (negotiated.size >= 1000) negotiated.clear();
    negotiated.set(accept, format);
  }
  return format;
}

function negotiate(accept: string | undefined, offered: readonly Format[]): Format | null {
  if (!accept || !accept.trim()) return offered[0];
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type, ...params] = part.trim().split(';');
      let q = 1;
      for (const p of params) {
        const [k, v] = p.trim().split('=');
        if (k === 'q') q = Number.parseFloat(v);
      }
      return { type: type.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((r) => r.type && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    if (range.type === '*/*') return offered[0];
    const exact = BY_MEDIA[range.type];
    if (exact && offered.includes(exact)) return exact;
    if (range.type.endsWith('/*')) {
      const major = range.type.slice(0, -2);
      const match = offered.find((f) => MEDIA_TYPES[f].startsWith(major + '/'));
      if (match) return match;
    }
  }
  return null;
}

/** Body media types a write accepts; anything else is 415. */
export function isAcceptedBodyType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return (
    type === 'application/ld+json' ||
    type === 'application/json' ||
    type === 'application/merge-patch+json' ||
    type === 'application/x-www-form-urlencoded' ||
    type === 'multipart/form-data'
  );
}
