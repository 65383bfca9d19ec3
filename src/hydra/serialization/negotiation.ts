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
/**
 * Answers per offer (the format lists are constants of the declarations) and Accept header
 * (clients send a handful of distinct ones); each table is bounded.
 */
const negotiated = new Map<string, Map<string, Format | null>>();

/** Picks the response format from Accept (quality values, wildcards); null means 406. */
export function negotiateFormat(
  accept: string | undefined,
  offered: readonly Format[] = ALL_FORMATS,
): Format | null {
  if (accept === undefined) return negotiate(accept, offered);
  const offer = offered.join();
  let answers = negotiated.get(offer);
  if (!answers) negotiated.set(offer, (answers = new Map()));
  let format = answers.get(accept);
  if (format === undefined) {
    format = negotiate(accept, offered);
    if (answers.size >= 1000) answers.clear();
    answers.set(accept, format);
  }
  return format;
}

/**
 * API Platform's (Symfony's) choice: every offered format gets the quality of the most
 * specific Accept range that matches it (exact type, then a type wildcard, then the full wildcard); the highest
 * quality wins, and among equals the server's own order of formats (jsonld, json, csv, html),
 * not the order of the header. So axios's default Accept (JSON, text, anything) gets JSON-LD.
 */
function negotiate(accept: string | undefined, offered: readonly Format[]): Format | null {
  if (!accept || !accept.trim()) return offered[0];
  const ranges = accept.split(',').map((part) => {
    const [type, ...params] = part.trim().split(';');
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k?.trim() === 'q') q = Number.parseFloat(v);
    }
    return { type: type.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0 };
  });
  let best: Format | null = null;
  let bestQ = 0;
  for (const format of offered) {
    const q = quality(format, ranges);
    if (q > bestQ) {
      best = format;
      bestQ = q;
    }
  }
  return best;
}

/** The quality the most specific matching range gives the format (0: not acceptable). */
function quality(format: Format, ranges: ReadonlyArray<{ type: string; q: number }>): number {
  let specificity = -1;
  let q = 0;
  for (const range of ranges) {
    const s =
      BY_MEDIA[range.type] === format
        ? 3
        : range.type.endsWith('/*') && MEDIA_TYPES[format].startsWith(range.type.slice(0, -1))
          ? 2
          : range.type === '*/*'
            ? 1
            : -1;
    if (s > specificity || (s === specificity && range.q > q)) {
      specificity = s;
      q = s < 0 ? 0 : range.q;
    }
  }
  return q;
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
