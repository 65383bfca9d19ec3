import type { Violation } from '../common/errors/api-errors';
import { ViolationCodes } from '../common/errors/api-errors';

/** Builder colours, as the reference service's builder schema writes them. */
const HEX_COLOR = /^#[A-Fa-f0-9]{3,8}$/;
/** Builder sizes in pixels. */
const PIXEL_KEYS = new Set(['borderRadius', 'borderWidth', 'fontSize']);
const MAX_DEPTH = 6;

const isColorKey = (key: string) => key === 'color' || key.endsWith('Color');

/**
 * Violations of a tracking page builder: colours must be hex (`#1a2b3c`), sizes non-negative
 * integers; other members are the front end's business and kept as given.
 */
export function builderViolations(builder: unknown, path = 'builder'): Violation[] {
  const out: Violation[] = [];
  const walk = (value: unknown, at: string, depth: number) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    if (depth > MAX_DEPTH) {
      out.push({ propertyPath: at, message: 'This value is nested too deeply.', code: null });
      return;
    }
    for (const [key, v] of Object.entries(value)) {
      const p = `${at}.${key}`;
      if (v === null || v === undefined) continue;
      if (isColorKey(key) && (typeof v !== 'string' || !HEX_COLOR.test(v))) {
        out.push({
          propertyPath: p,
          message: 'This value is not valid.',
          code: ViolationCodes.regex,
        });
      } else if (
        PIXEL_KEYS.has(key) &&
        (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 10000)
      ) {
        out.push({
          propertyPath: p,
          message: 'This value should be a positive integer.',
          code: ViolationCodes.invalid,
        });
      } else walk(v, p, depth + 1);
    }
  };
  walk(builder, path, 1);
  return out;
}

export interface CustomTheme {
  id: string | null;
  variables: Record<string, string>;
  css: string;
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

/**
 * The CSS theme of a tracking page, derived from its builder: one custom property per colour
 * and size (`--tp-card-background-color: #fff`). Only validated hex colours and integers reach
 * the CSS, so builder content can never inject style rules.
 */
export function customThemeOf(builder: Record<string, unknown>, id: string | null): CustomTheme {
  const variables: Record<string, string> = {};
  const walk = (value: unknown, parts: string[], depth: number) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || depth > MAX_DEPTH)
      return;
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      const name = `--tp-${[...parts, key].map(kebab).join('-')}`;
      if (isColorKey(key) && typeof v === 'string' && HEX_COLOR.test(v)) variables[name] = v;
      else if (PIXEL_KEYS.has(key) && Number.isInteger(v) && (v as number) >= 0)
        variables[name] = `${v as number}px`;
      else walk(v, [...parts, key], depth + 1);
    }
  };
  walk(builder, [], 1);
  const body = Object.entries(variables)
    .map(([k, v]) => `  ${k}: ${v};`)
    .join('\n');
  return { id, variables, css: `:root {\n${body}\n}\n` };
}
