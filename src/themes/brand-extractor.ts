import { Parser } from 'htmlparser2';
import { contrastText, darken, isBrandish, normalizeColor, similar } from './css-colors';

/**
 * Reads a shop's brand from its HTML and CSS, without a DOM: tags and attributes from
 * htmlparser2's tokenizer, CSS as rules and declarations by a character scan. Pure, linear in
 * the size of what it is given (capped), whatever that holds.
 *
 * - colours: `<meta name="theme-color">`, custom properties named like primary/brand/accent,
 *   backgrounds of buttons, headers and navigation, then every colour by frequency; the body's
 *   background and text colours;
 * - fonts: families of body and headings, Google Fonts links, then any declared family
 *   (generic and icon fonts left out);
 * - logo: an image named like a logo, else the touch icon or the Open Graph image; favicon;
 * - name: og:site_name, application-name or the title.
 */
export interface BrandTheme {
  name: string | null;
  sourceUrl: string;
  logo: string | null;
  favicon: string | null;
  colors: { primary: string; secondary: string; background: string; text: string };
  fonts: { heading: string | null; body: string | null; all: string[] };
  /** Which parts came from the page (the others are defaults or derived). */
  detected: { primary: boolean; secondary: boolean; background: boolean; text: boolean };
}

export interface Tag {
  name: string;
  attrs: Record<string, string>;
}

const DEFAULT_PRIMARY = '#2f6fed';
const GENERIC_FONTS = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-sans-serif',
  'ui-serif',
  'ui-monospace',
  'inherit',
  'initial',
  'unset',
  '-apple-system',
  'blinkmacsystemfont',
  'segoe ui',
  'helvetica neue',
  'arial',
  'helvetica',
  'apple color emoji',
  'segoe ui emoji',
  'segoe ui symbol',
  'noto color emoji',
]);
const ICON_FONT = /icon|awesome|glyph|material symbols|dashicons/i;
const COLOR_TOKEN =
  /#[0-9a-f]{3,8}\b|rgba?\([^)]{1,60}\)|hsla?\([^)]{1,60}\)|\b(?:black|white|red|green|blue|navy|teal|orange|purple|gray|grey|silver|maroon|olive|yellow|pink|gold|crimson|tomato|coral|indigo|darkblue|darkgreen|whitesmoke)\b/gi;
const COLOR_PROPS =
  /^(color|background|background-color|border-color|border|fill|stroke|outline-color)$/;
const BRAND_VAR = /primary|brand|accent|main|theme|button|link/i;
const BRAND_SELECTOR = /btn|button|header|nav|primary|brand|cta|accent|announcement/i;

/** Longest page and stylesheet text read (the fetcher caps bodies too); the rest is ignored. */
export const MAX_HTML_LENGTH = 2_000_000;
export const MAX_CSS_LENGTH = 2_000_000;
/** Longest selector and declaration value kept: longer ones say nothing about a brand. */
const MAX_CSS_PART_LENGTH = 2_000;

function capped(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

interface ScannedPage {
  tags: Tag[];
  /** Text of every `<style>` and `<title>` element, in order. */
  styles: string[];
  titles: string[];
}

/**
 * One pass of htmlparser2 over the page: every start tag with its attributes (names lower
 * case, values decoded) and the texts of style and title elements; scripts and comments are
 * skipped by the parser. Linear in the page's length whatever it holds.
 */
export function scanHtml(html: string): ScannedPage {
  const page: ScannedPage = { tags: [], styles: [], titles: [] };
  let collecting: { into: string[]; text: string } | null = null;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const attrs: Record<string, string> = {};
        for (const [key, value] of Object.entries(attribs)) {
          const lower = key.toLowerCase();
          if (!(lower in attrs)) attrs[lower] = value;
        }
        page.tags.push({ name, attrs });
        if (name === 'style' || name === 'title')
          collecting = { into: name === 'style' ? page.styles : page.titles, text: '' };
      },
      ontext(text) {
        if (collecting) collecting.text += text;
      },
      onclosetag(name) {
        if (collecting && (name === 'style' || name === 'title')) {
          collecting.into.push(collecting.text);
          collecting = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(capped(html, MAX_HTML_LENGTH));
  parser.end();
  return page;
}

/** Every start tag with its attributes (names lower case, values decoded). */
export function startTags(html: string): Tag[] {
  return scanHtml(html).tags;
}

/** Text of every `<name>` element whose text the page keeps (style, title). */
export function elementTexts(html: string, name: 'style' | 'title'): string[] {
  const page = scanHtml(html);
  return name === 'style' ? page.styles : page.titles;
}

interface Rule {
  selector: string;
  declarations: Array<[string, string]>;
}

/**
 * CSS rules (nested at-rules flattened), comments removed: one character scan, no regular
 * expression over the sheet, so a hostile stylesheet costs linear time.
 */
export function cssRules(css: string): Rule[] {
  const text = capped(css, MAX_CSS_LENGTH);
  const rules: Rule[] = [];
  let buffer = '';
  let selector: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (c === '{') {
      // An at-rule's or outer block's prelude: the innermost block is the rule.
      selector = buffer;
      buffer = '';
    } else if (c === '}') {
      if (selector !== null) rules.push(rule(selector, buffer));
      selector = null;
      buffer = '';
    } else if (buffer.length < MAX_CSS_PART_LENGTH * 4) {
      buffer += c;
    }
  }
  return rules;
}

function rule(selector: string, body: string): Rule {
  const declarations: Array<[string, string]> = [];
  for (const part of body.split(';')) {
    const colon = part.indexOf(':');
    if (colon <= 0) continue;
    const prop = part.slice(0, colon).trim().toLowerCase();
    const value = part.slice(colon + 1).trim();
    if (!/^[-\w]+$/.test(prop) || !value || value.length > MAX_CSS_PART_LENGTH) continue;
    declarations.push([prop, value]);
  }
  return { selector: capped(selector.trim().toLowerCase(), MAX_CSS_PART_LENGTH), declarations };
}

/** Stylesheets the page links, absolute http(s) URLs, at most `max`. */
export function stylesheetUrls(html: string, baseUrl: string, max = 3): string[] {
  const urls: string[] = [];
  for (const tag of startTags(html)) {
    if (tag.name !== 'link' || !/\bstylesheet\b/i.test(tag.attrs.rel ?? '')) continue;
    const url = absolute(tag.attrs.href, baseUrl);
    if (url && !urls.includes(url) && !/fonts\.googleapis\.com/.test(url)) urls.push(url);
    if (urls.length >= max) break;
  }
  return urls;
}

function absolute(href: string | undefined, base: string): string | null {
  if (!href || href.startsWith('data:')) return null;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The family part of a `font` shorthand: what follows the size (`bold 16px/1.2 Inter`). */
function fontShorthandFamily(value: string): string {
  const words = value.split(/\s+/);
  const size = words.findIndex((w) => /\d(px|em|rem|%)/.test(w));
  return size < 0 ? value : words.slice(size + 1).join(' ');
}

function firstFamily(value: string): string | null {
  for (const part of value.split(',')) {
    let name = part.trim().replace(/^["']|["']$/g, '');
    // endsWith, not /\s*!important$/: that rescans every run of blanks (quadratic).
    if (name.toLowerCase().endsWith('!important')) name = name.slice(0, -'!important'.length);
    name = name.trim();
    if (!name || name.startsWith('var(')) continue;
    if (GENERIC_FONTS.has(name.toLowerCase()) || ICON_FONT.test(name)) continue;
    return name;
  }
  return null;
}

export function extractBrand(
  html: string,
  sourceUrl: string,
  stylesheets: string[] = [],
): BrandTheme {
  const page = scanHtml(html);
  const tags = page.tags;
  const meta = (key: string) =>
    tags.find(
      (t) =>
        t.name === 'meta' &&
        ((t.attrs.name ?? '').toLowerCase() === key ||
          (t.attrs.property ?? '').toLowerCase() === key),
    )?.attrs.content ?? null;

  const inlineStyles = tags
    .filter((t) => t.attrs.style)
    .map(
      (t) =>
        `${t.name}${t.attrs.class ? '.' + t.attrs.class.split(/\s+/).join('.') : ''}{${t.attrs.style}}`,
    );
  const css = [...page.styles, ...stylesheets, ...inlineStyles].join('\n');
  const rules = cssRules(css);

  // Colours, weighted by where they appear.
  const weights = new Map<string, number>();
  const add = (raw: string, weight: number) => {
    for (const token of raw.match(COLOR_TOKEN) ?? []) {
      const hex = normalizeColor(token);
      if (hex) weights.set(hex, (weights.get(hex) ?? 0) + weight);
    }
  };
  const themeColor = meta('theme-color');
  if (themeColor) add(themeColor.slice(0, 200), 50);
  let background: string | null = null;
  let text: string | null = null;
  for (const rule of rules) {
    const isBody = /(^|,)\s*(html|body|:root)\s*(,|$)/.test(rule.selector);
    for (const [prop, value] of rule.declarations) {
      if (prop.startsWith('--')) {
        if (BRAND_VAR.test(prop)) add(value, 10);
        continue;
      }
      if (!COLOR_PROPS.test(prop)) continue;
      const first = (value.match(COLOR_TOKEN) ?? [])[0];
      if (isBody && first) {
        if (prop.startsWith('background') && !background) background = normalizeColor(first);
        if (prop === 'color' && !text) text = normalizeColor(first);
      }
      add(value, prop.startsWith('background') && BRAND_SELECTOR.test(rule.selector) ? 5 : 1);
    }
  }
  const ranked = [...weights.entries()].sort((a, b) => b[1] - a[1]).map(([hex]) => hex);
  const brandish = ranked.filter(isBrandish);
  const primary = brandish[0] ?? null;
  const secondary = brandish.find((c) => primary && !similar(c, primary)) ?? null;

  // Fonts.
  const families: string[] = [];
  const pushFamily = (f: string | null) => {
    if (f && !families.some((x) => x.toLowerCase() === f.toLowerCase())) families.push(f);
  };
  let bodyFont: string | null = null;
  let headingFont: string | null = null;
  for (const rule of rules) {
    for (const [prop, value] of rule.declarations) {
      if (prop !== 'font-family' && prop !== 'font') continue;
      const family = firstFamily(prop === 'font' ? fontShorthandFamily(value) : value);
      if (!family) continue;
      if (!bodyFont && /(^|,)\s*(html|body|:root)\s*(,|$)/.test(rule.selector)) bodyFont = family;
      if (!headingFont && /(^|,)\s*h[1-3]\b/.test(rule.selector)) headingFont = family;
      pushFamily(family);
    }
  }
  for (const tag of tags) {
    if (tag.name !== 'link') continue;
    const href = tag.attrs.href ?? '';
    if (!/fonts\.googleapis\.com\/css/.test(href)) continue;
    try {
      const url = new URL(href, sourceUrl);
      for (const f of url.searchParams.getAll('family'))
        for (const one of f.split('|')) pushFamily(one.split(':')[0].replace(/\+/g, ' ').trim());
    } catch {
      // an unreadable font link tells nothing
    }
  }
  bodyFont ??= families[0] ?? null;
  headingFont ??= bodyFont;

  // Logo, favicon, name.
  const images = tags.filter((t) => t.name === 'img');
  const logoImage = images.find((t) =>
    /logo/i.test([t.attrs.class, t.attrs.id, t.attrs.alt, t.attrs.src].join(' ')),
  );
  const logoSrc = logoImage
    ? (logoImage.attrs.src ??
      logoImage.attrs['data-src'] ??
      logoImage.attrs.srcset?.split(/[\s,]/)[0])
    : undefined;
  const linkHref = (rel: RegExp) =>
    tags.find((t) => t.name === 'link' && rel.test(t.attrs.rel ?? ''))?.attrs.href;
  const logo =
    absolute(logoSrc, sourceUrl) ??
    absolute(linkHref(/apple-touch-icon/i), sourceUrl) ??
    absolute(meta('og:image') ?? undefined, sourceUrl);
  const favicon = absolute(linkHref(/(^|\s)(shortcut\s+)?icon(\s|$)/i), sourceUrl);
  const title = page.titles[0];
  const name =
    meta('og:site_name') ??
    meta('application-name') ??
    (title ? title.replace(/\s+/g, ' ').trim() : null);

  const primaryColor = primary ?? DEFAULT_PRIMARY;
  return {
    name: name ? name.slice(0, 200) : null,
    sourceUrl,
    logo,
    favicon,
    colors: {
      primary: primaryColor,
      secondary: secondary ?? darken(primaryColor, 0.25),
      background: background ?? '#ffffff',
      text: text ?? contrastText(background ?? '#ffffff'),
    },
    fonts: { heading: headingFont, body: bodyFont, all: families.slice(0, 6) },
    detected: {
      primary: primary !== null,
      secondary: secondary !== null,
      background: background !== null,
      text: text !== null,
    },
  };
}

/**
 * The theme as a tracking page `builder` (hex colours, pixel sizes), ready for
 * POST/PUT /tracking_pages and the page's custom theme CSS.
 */
export function builderOf(theme: BrandTheme): Record<string, unknown> {
  const { primary, secondary, background, text } = theme.colors;
  return {
    general: {
      backgroundColor: background,
      textColor: text,
      fontFamily: theme.fonts.body,
      headingFontFamily: theme.fonts.heading,
    },
    header: { backgroundColor: primary, textColor: contrastText(primary), logo: theme.logo },
    button: {
      backgroundColor: primary,
      textColor: contrastText(primary),
      borderRadius: 4,
    },
    accent: { color: secondary },
    progressBar: { activeColor: primary, inactiveColor: '#e5e7eb' },
  };
}
