import { CompiledFormat } from './carrier-detector';
import {
  checkChar,
  luhnCheckDigit,
  mod10CheckDigit,
  mod3736CheckChar,
  mod7CheckDigit,
  s10CheckDigit,
  weightedModCheckDigit,
} from './checksums';
import { ChecksumSpec, Part } from './tracking-number-formats';

/**
 * Builds random, valid tracking numbers for a compiled format: every field is filled with
 * random allowed characters, restricted fields (S10 country, DPD country) with allowed
 * values, and the check digit is computed from the serial. Used by property tests and the
 * benchmark; not by the service.
 */

/** Uniform float in [0, 1). */
export type Random = () => number;

/** Small seeded PRNG (mulberry32), so generated corpora are reproducible. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const pick = <T>(rnd: Random, items: readonly T[]): T => items[Math.floor(rnd() * items.length)];

const classCache = new Map<string, string[]>();
/** Every string of `length` characters over 0-9A-Z matching `pattern` (short patterns only). */
function valuesOf(pattern: string, length: number): string[] {
  const key = `${pattern}/${length}`;
  let values = classCache.get(key);
  if (!values) {
    const re = new RegExp(`^(?:${pattern})$`);
    let all = [''];
    for (let i = 0; i < length; i++) all = all.flatMap((p) => [...ALPHABET].map((c) => p + c));
    values = all.filter((v) => re.test(v));
    classCache.set(key, values);
  }
  return values;
}

function isCharClass(p: string): boolean {
  return p.startsWith('[') && p.endsWith(']') && p.indexOf(']') === p.length - 1;
}

function fill(parts: readonly Part[], rnd: Random, fixed: ReadonlyMap<string, string>): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p;
    else if (p.kind === 'guard') continue;
    else if (p.kind === 'group') out += fixed.get(p.group) ?? fill(p.parts, rnd, fixed);
    else if (p.group && fixed.has(p.group)) out += fixed.get(p.group);
    else if (isCharClass(p.pattern)) {
      const chars = valuesOf(p.pattern, 1);
      for (let i = 0; i < p.length; i++) out += pick(rnd, chars);
    } else out += pick(rnd, valuesOf(p.pattern, p.length));
  }
  return out;
}

/** The expected check character for a serial under a checksum spec. */
export function checkFor(spec: ChecksumSpec, serial: string): string {
  switch (spec.algorithm) {
    case 'mod10':
      return mod10CheckDigit(serial, spec);
    case 'mod7':
      return mod7CheckDigit(serial);
    case 's10':
      return s10CheckDigit(serial);
    case 'luhn':
      return luhnCheckDigit(serial);
    case 'mod37-36':
      return mod3736CheckChar(serial);
    case 'weighted-mod':
      return weightedModCheckDigit(serial, spec);
  }
}

/** Characters a check position may hold under this spec. */
export function checkAlphabet(spec: ChecksumSpec): string[] {
  const size = spec.algorithm === 'mod37-36' ? 36 : 10;
  return Array.from({ length: size }, (_, i) => checkChar(i));
}

/**
 * A random valid number of this format (normalised form). `overrides` pins named groups to
 * given values (e.g. `{ CountryCode: 'GB' }` for S10).
 */
export function generateTrackingNumber(
  format: CompiledFormat,
  rnd: Random,
  overrides: Readonly<Record<string, string>> = {},
): string {
  const def = format.definition;
  for (let attempt = 0; attempt < 1000; attempt++) {
    const fixed = new Map<string, string>();
    for (const c of def.fieldChecks ?? []) fixed.set(c.group, pick(rnd, c.allowed));
    if (def.carrierFromGroup) {
      fixed.set(def.carrierFromGroup.group, pick(rnd, [...def.carrierFromGroup.carriers.keys()]));
    }
    for (const [name, value] of Object.entries(overrides)) fixed.set(name, value);
    let s = fill(def.parts, rnd, fixed);
    if (def.checksum) {
      const serial = format.groups.SerialNumber;
      const check = format.groups.CheckDigit;
      const c = checkFor(def.checksum, s.slice(serial.start, serial.end));
      s = s.slice(0, check.start) + c + s.slice(check.end);
    }
    if (format.regex.test(s)) return s;
  }
  throw new Error(`Could not generate a number for ${format.id}`);
}

/** The same number with the character at `index` replaced by `char`. */
export function replaceAt(s: string, index: number, char: string): string {
  return s.slice(0, index) + char + s.slice(index + 1);
}
