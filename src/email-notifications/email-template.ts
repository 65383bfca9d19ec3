import { Parser } from 'htmlparser2';

/**
 * E-mail notification templates: text with `{{ variable }}` placeholders. The subject is
 * rendered as text; the body as HTML (values escaped) with a plain-text alternative.
 */
export const TEMPLATE_VARIABLES = [
  'event',
  'trackingNumber',
  'trackingStatus',
  'trackingStatusTitle',
  'previousStatus',
  'previousStatusTitle',
  'originCarrier',
  'destinationCarrier',
  'destinationCountry',
  'email',
  'orderNumbers',
  'shippedAt',
  'expectedDeliveryDate',
  'firstName',
  'lastName',
  'city',
  'countryIso2',
  'shipmentStatus',
  'workspaceTitle',
  'trackingUrl',
] as const;

export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
export type TemplateValues = Partial<Record<TemplateVariable, string | null>>;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const KNOWN = new Set<string>(TEMPLATE_VARIABLES);

/** Placeholders of a template that are not template variables, in order, once each. */
export function unknownVariables(template: string | null | undefined): string[] {
  if (!template) return [];
  const out = new Set<string>();
  for (const m of template.matchAll(PLACEHOLDER)) if (!KNOWN.has(m[1])) out.add(m[1]);
  return [...out];
}

export function renderText(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_m, name: string) =>
    KNOWN.has(name) ? (values[name as TemplateVariable] ?? '') : '',
  );
}

export function renderHtml(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_m, name: string) =>
    KNOWN.has(name) ? escapeHtml(values[name as TemplateVariable] ?? '') : '',
  );
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Longest HTML `htmlToText` reads; the rest is left out of the text version. */
export const MAX_HTML_TO_TEXT_LENGTH = 500_000;

const LINE_BREAK_AFTER = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'tr']);
const NOT_TEXT = new Set(['script', 'style', 'head', 'title']);

/**
 * A readable plain-text version of an HTML body (line breaks kept, tags dropped, links as
 * `text (href)`). The HTML is tokenised by htmlparser2 (one linear pass, whatever the input:
 * untrusted bodies cannot make it backtrack), and the clean-up runs line by line.
 */
export function htmlToText(html: string): string {
  let out = '';
  const links: Array<string | null> = [];
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (NOT_TEXT.has(name)) hidden++;
        else if (name === 'br') out += '\n';
        else if (name === 'a') links.push(attrs.href ?? null);
      },
      onclosetag(name, implied) {
        if (NOT_TEXT.has(name)) hidden = Math.max(0, hidden - 1);
        else if (LINE_BREAK_AFTER.has(name) && !implied) out += '\n';
        else if (name === 'a') {
          const href = links.pop();
          if (href) out += ` (${href})`;
        }
      },
      ontext(text) {
        if (hidden === 0) out += text;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(
    html.length > MAX_HTML_TO_TEXT_LENGTH ? html.slice(0, MAX_HTML_TO_TEXT_LENGTH) : html,
  );
  parser.end();
  const lines = out
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map(trimEndBlanks);
  // At most one empty line in a row.
  const kept: string[] = [];
  for (const line of lines) {
    if (line === '' && kept.length > 0 && kept[kept.length - 1] === '') continue;
    kept.push(line);
  }
  return kept.join('\n').trim();
}

/** `line` without trailing spaces and tabs (a loop: a regex would rescan long blank runs). */
function trimEndBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return line.slice(0, end);
}
