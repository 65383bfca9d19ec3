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

/** A readable plain-text version of an HTML body (line breaks kept, tags dropped). */
export function htmlToText(html: string): string {
  return html
    .replace(/<\s*(br|\/p|\/div|\/h[1-6]|\/li|\/tr)\s*\/?>/gi, '\n')
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gi, '$2 ($1)')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
