import { customThemeOf } from '../custom-theme';

/** What a page takes from its builder and workspace: colours, font, logo. */
export interface PageBrand {
  title: string;
  /** `--tp-*` custom properties of the builder (validated hex colours and pixel sizes only). */
  cssVariables: Array<[string, string]>;
  /** A CSS font-family list: a safe family name from the builder, then system fonts. */
  fontFamily: string;
  /** Text colour readable on the header and on buttons. */
  headerText: string;
  buttonText: string;
  logoPath: string | null;
  logoLink: string | null;
}

const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** Family names only: letters, digits, spaces, hyphens (no quotes, no url(), nothing else). */
const FAMILY_NAME = /^[A-Za-z0-9][A-Za-z0-9 -]{0,60}$/;
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const MEDIA_PATH = /^\/media\/files\/[0-9a-f-]{36}\/[A-Za-z0-9._-]{1,120}$/;

const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The path of an image this app serves itself (an upload under /media/files), from a path or
 * a URL on `ownOrigins`; null otherwise. The page loads nothing from third parties: other
 * images are shown through the image proxy (`pageImage`), or not at all.
 */
export function ownImagePath(url: unknown, ownOrigins: string[]): string | null {
  if (typeof url !== 'string' || url === '') return null;
  if (MEDIA_PATH.test(url)) return url;
  try {
    const parsed = new URL(url);
    if (!ownOrigins.includes(parsed.origin)) return null;
    return MEDIA_PATH.test(parsed.pathname) ? parsed.pathname : null;
  } catch {
    return null;
  }
}

/** Signs a remote image's proxy path (RemoteImages.pathFor), or null when it takes no such URL. */
export type RemoteImagePath = (url: unknown) => string | null;

/**
 * What an `<img src>` of the page is for an image URL: an own upload's path as is, another
 * http(s) URL through the signed image proxy (`/public/images/...`), else null (placeholder).
 */
export function pageImage(
  url: unknown,
  ownOrigins: string[],
  remote: RemoteImagePath | undefined,
): string | null {
  return ownImagePath(url, ownOrigins) ?? remote?.(url) ?? null;
}

/** An http(s) URL safe to put in an href (links are not requests), else null. */
export function safeLink(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 2000) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Relative luminance (WCAG 2.1) of a hex colour. */
export function luminance(hex: string): number {
  let h = hex.slice(1);
  if (h.length <= 4) h = [...h.slice(0, 3)].map((c) => c + c).join('');
  const channel = (i: number) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** Black or white, whichever contrasts more with `background` (at least 4.5:1 for any colour). */
export function readableOn(background: string | undefined, fallback: string): string {
  if (!background || !HEX.test(background)) return fallback;
  const l = luminance(background);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#111111' : '#ffffff';
}

export function brandOf(input: {
  builder: unknown;
  pageTitle: string | null;
  workspace: { title: string; logoPath: string | null };
  ownOrigins: string[];
  /** Remote logos through the image proxy; without it only own uploads are shown. */
  remoteImage?: RemoteImagePath;
  defaultTitle: string;
}): PageBrand {
  const builder = obj(input.builder);
  const theme = customThemeOf(builder, null);
  const logo = obj(builder.logo);
  const font = obj(obj(builder.card).font);
  const family = [font.customFontName, font.fontFamily].find(
    (f): f is string => typeof f === 'string' && FAMILY_NAME.test(f.trim()),
  );
  const builderLogo = pageImage(logo.imageUrl, input.ownOrigins, input.remoteImage);
  const workspaceLogo = pageImage(input.workspace.logoPath, input.ownOrigins, input.remoteImage);
  return {
    title: input.pageTitle?.trim() || input.workspace.title || input.defaultTitle,
    cssVariables: Object.entries(theme.variables),
    fontFamily: family ? `"${family.trim()}", ${SYSTEM_FONTS}` : SYSTEM_FONTS,
    headerText: readableOn(theme.variables['--tp-header-background-color'], '#111111'),
    buttonText: readableOn(theme.variables['--tp-track-button-background-color'], '#ffffff'),
    logoPath: logo.on === false ? null : (builderLogo ?? workspaceLogo),
    logoLink: safeLink(logo.linkUrl),
  };
}
