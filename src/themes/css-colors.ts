/** Colours as they appear in CSS, normalised to `#rrggbb`, and what we need to know of them. */

const NAMED: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  blue: '#0000ff',
  navy: '#000080',
  teal: '#008080',
  orange: '#ffa500',
  purple: '#800080',
  gray: '#808080',
  grey: '#808080',
  silver: '#c0c0c0',
  maroon: '#800000',
  olive: '#808000',
  yellow: '#ffff00',
  pink: '#ffc0cb',
  gold: '#ffd700',
  crimson: '#dc143c',
  tomato: '#ff6347',
  coral: '#ff7f50',
  indigo: '#4b0082',
  darkblue: '#00008b',
  darkgreen: '#006400',
  whitesmoke: '#f5f5f5',
};

const hex2 = (n: number) =>
  Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, '0');

/** `#rrggbb` of a CSS colour, or null (transparent, currentColor, variables, unknown forms). */
export function normalizeColor(raw: string): string | null {
  const value = raw.trim().toLowerCase();
  let m = /^#([0-9a-f]{3,8})$/.exec(value);
  if (m) {
    const h = m[1];
    if (h.length === 3 || h.length === 4) return `#${h[0]}${h[0]}${h[1]}${h[1]}${h[2]}${h[2]}`;
    if (h.length === 6 || h.length === 8) {
      if (h.length === 8 && h.slice(6) === '00') return null;
      return `#${h.slice(0, 6)}`;
    }
    return null;
  }
  m =
    /^rgba?\(\s*([\d.]+)(%?)[\s,]+([\d.]+)(%?)[\s,]+([\d.]+)(%?)(?:[\s,/]+([\d.]+)(%?))?\s*\)$/.exec(
      value,
    );
  if (m) {
    const channel = (v: string, pct: string) => (pct ? (Number(v) * 255) / 100 : Number(v));
    if (m[7] !== undefined && Number(m[7]) === 0) return null;
    return `#${hex2(channel(m[1], m[2]))}${hex2(channel(m[3], m[4]))}${hex2(channel(m[5], m[6]))}`;
  }
  m = /^hsla?\(\s*([\d.]+)(?:deg)?[\s,]+([\d.]+)%[\s,]+([\d.]+)%(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(
    value,
  );
  if (m) {
    if (m[4] !== undefined && parseFloat(m[4]) === 0) return null;
    return hslToHex(Number(m[1]), Number(m[2]) / 100, Number(m[3]) / 100);
  }
  return NAMED[value] ?? null;
}

function hslToHex(h: number, s: number, l: number): string {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return `#${hex2(f(0) * 255)}${hex2(f(8) * 255)}${hex2(f(4) * 255)}`;
}

function rgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** Relative luminance (WCAG), 0 black to 1 white. */
export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** HSL saturation, 0 grey to 1 vivid. */
export function saturation(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => c / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return 0;
  return l > 0.5 ? (max - min) / (2 - max - min) : (max - min) / (max + min);
}

/** A brand colour: vivid enough and neither near-white nor near-black. */
export function isBrandish(hex: string): boolean {
  const lum = luminance(hex);
  return saturation(hex) >= 0.25 && lum > 0.02 && lum < 0.85;
}

/** Black or white, whichever reads better on `hex`. */
export function contrastText(hex: string): string {
  return luminance(hex) > 0.45 ? '#111111' : '#ffffff';
}

/** The colour mixed towards black by `amount` (0..1). */
export function darken(hex: string, amount: number): string {
  const [r, g, b] = rgb(hex);
  return `#${hex2(r * (1 - amount))}${hex2(g * (1 - amount))}${hex2(b * (1 - amount))}`;
}

/** Whether two colours are close (Euclidean distance in RGB). */
export function similar(a: string, b: string, threshold = 40): boolean {
  const [r1, g1, b1] = rgb(a);
  const [r2, g2, b2] = rgb(b);
  return Math.hypot(r1 - r2, g1 - g2, b1 - b2) < threshold;
}
