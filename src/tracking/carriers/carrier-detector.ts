import { Carrier, CarrierCandidate } from './carrier';
import { findCarrier } from './carrier-catalogue';
import {
  checkValueAt,
  luhnAt,
  mod10At,
  mod10Prefix,
  mod3736At,
  mod7At,
  s10At,
  weightedModAt,
} from './checksums';
import {
  ChecksumSpec,
  Part,
  PATTERN_FORMATS,
  TRACKING_NUMBER_FORMATS,
  TrackingNumberFormat,
} from './tracking-number-formats';

/**
 * Carrier detection from a tracking number.
 *
 * Everything is compiled at module load: each format becomes an anchored regex with named
 * groups plus the fixed offsets of its groups, and formats are bucketed by length and first
 * character. A number is normalised once, then only the formats of its (length, first
 * character) bucket are tried: `regex.test` (no match object), then the check digit read in
 * place by char codes. Candidates are prebuilt objects, so a test allocates nothing and a
 * result array is only created when something matches.
 */

/** Position of a named group inside a (fixed-length) format. */
export interface GroupSpan {
  start: number;
  end: number;
}

/** A compiled format, as exposed for tests, generators and diagnostics. */
export interface CompiledFormat {
  readonly id: string;
  readonly name: string;
  /** Carrier code; for S10 the pseudo-code `s10` (the real carrier comes from the suffix). */
  readonly carrierCode: string;
  readonly regex: RegExp;
  readonly length: number;
  readonly groups: Readonly<Record<string, GroupSpan>>;
  readonly checksum: ChecksumSpec | undefined;
  readonly score: number;
  readonly definition: TrackingNumberFormat;
}

const enum Algorithm {
  None,
  Mod10,
  Mod7,
  S10,
  Luhn,
  Mod3736,
  WeightedMod,
}

interface KeyedSpan {
  start: number;
  end: number;
  allowed: ReadonlySet<number>;
}

interface Matcher {
  format: CompiledFormat;
  regex: RegExp;
  algorithm: Algorithm;
  serialStart: number;
  serialEnd: number;
  checkPos: number;
  checkAlphanumeric: boolean;
  // Algorithm parameters, flattened so the hot path reads plain numbers.
  evens: number;
  odds: number;
  prefixSum: number;
  prefixLength: number;
  weights: readonly number[];
  modulo1: number;
  modulo2: number;
  fieldChecks: readonly KeyedSpan[];
  /** Fixed-carrier formats: the one candidate they produce. */
  candidate: CarrierCandidate | null;
  /** Carrier-from-field formats (S10): field key -> candidate. */
  carrierSpan: GroupSpan | null;
  carrierCandidates: ReadonlyMap<number, CarrierCandidate> | null;
}

const FIRST_CODE = 48; // '0'
const LAST_CODE = 90; // 'Z'
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A single `[...]` class repeats; anything else is an exact-width pattern. */
const isCharClass = (p: string): boolean =>
  p.startsWith('[') && p.endsWith(']') && p.indexOf(']') === p.length - 1;

/**
 * A small integer key for the characters s[start, end) (digits and capitals, at most 8),
 * so that field lookups need no substring.
 */
function keyAt(s: string, start: number, end: number): number {
  let k = 0;
  for (let i = start; i < end; i++) k = k * 64 + (s.charCodeAt(i) - 47);
  return k;
}

const keyOf = (value: string): number => keyAt(value, 0, value.length);

interface Layout {
  source: string;
  length: number;
  literalChars: number;
  groups: Record<string, GroupSpan>;
  firstPatterns: string[];
}

function layout(parts: readonly Part[]): Layout {
  const groups: Record<string, GroupSpan> = {};
  let length = 0;
  let literalChars = 0;
  let firstPatterns: string[] | null = null;
  const walk = (ps: readonly Part[]): string => {
    let src = '';
    for (const p of ps) {
      if (typeof p === 'string') {
        if (firstPatterns === null) firstPatterns = [escapeRegex(p[0])];
        src += escapeRegex(p);
        length += p.length;
        literalChars += p.length;
      } else if (p.kind === 'guard') {
        src += p.source;
      } else if (p.kind === 'group') {
        const start = length;
        src += `(?<${p.group}>${walk(p.parts)})`;
        groups[p.group] = { start, end: length };
      } else {
        const start = length;
        let body: string;
        if (isCharClass(p.pattern)) {
          if (firstPatterns === null) firstPatterns = [p.pattern];
          body = p.length === 1 ? p.pattern : `${p.pattern}{${p.length}}`;
        } else {
          if (firstPatterns === null) firstPatterns = firstCharsOfPattern(p.pattern, p.length);
          body = `(?:${p.pattern})`;
        }
        src += p.group ? `(?<${p.group}>${body})` : body;
        length += p.length;
        if (p.group) groups[p.group] = { start, end: length };
      }
    }
    return src;
  };
  const source = `^${walk(parts)}$`;
  return { source, length, literalChars, groups, firstPatterns: firstPatterns ?? [] };
}

/** First characters an exact-width pattern can start with, found by trying them all. */
function firstCharsOfPattern(pattern: string, length: number): string[] {
  const re = new RegExp(`^(?:${pattern})$`);
  const out: string[] = [];
  for (const c of ALPHABET) {
    // Fill the remaining width with every character in turn until one matches.
    const rest = length - 1;
    const ok =
      rest === 0
        ? re.test(c)
        : [...ALPHABET].some((d) =>
            rest === 1 ? re.test(c + d) : [...ALPHABET].some((e) => re.test(c + d + e)),
          );
    if (ok) out.push(escapeRegex(c));
  }
  return out;
}

function algorithmOf(spec: ChecksumSpec | undefined): Algorithm {
  switch (spec?.algorithm) {
    case undefined:
      return Algorithm.None;
    case 'mod10':
      return Algorithm.Mod10;
    case 'mod7':
      return Algorithm.Mod7;
    case 's10':
      return Algorithm.S10;
    case 'luhn':
      return Algorithm.Luhn;
    case 'mod37-36':
      return Algorithm.Mod3736;
    case 'weighted-mod':
      return Algorithm.WeightedMod;
  }
}

/** Score: checksum-validated formats first, then literal specificity and field checks. */
function scoreOf(def: TrackingNumberFormat, literalChars: number): number {
  return (
    (def.checksum ? 100 : 50) +
    4 * literalChars +
    5 * ((def.fieldChecks?.length ?? 0) + (def.carrierFromGroup ? 1 : 0)) +
    (def.priority ?? 0)
  );
}

function requireCarrier(code: string, formatId: string): Carrier {
  const carrier = findCarrier(code);
  if (!carrier) throw new Error(`Format ${formatId} refers to unknown carrier ${code}`);
  return carrier;
}

function candidateFor(carrier: Carrier, format: CompiledFormat): CarrierCandidate {
  return Object.freeze({
    carrierCode: carrier.code,
    carrierName: carrier.name,
    formatName: format.name,
    formatId: format.id,
    score: format.score,
    checksumValidated: format.checksum !== undefined,
  });
}

function span(groups: Record<string, GroupSpan>, name: string, formatId: string): GroupSpan {
  const g = groups[name];
  if (!g) throw new Error(`Format ${formatId} has no group ${name}`);
  return g;
}

function compile(def: TrackingNumberFormat): { matcher: Matcher; firstPatterns: string[] } {
  const l = layout(def.parts);
  const format: CompiledFormat = Object.freeze({
    id: def.id,
    name: def.name,
    carrierCode: def.carrierCode,
    regex: new RegExp(l.source),
    length: l.length,
    groups: Object.freeze(l.groups),
    checksum: def.checksum,
    score: scoreOf(def, l.literalChars),
    definition: def,
  });
  const algorithm = algorithmOf(def.checksum);
  const serialSpan =
    algorithm === Algorithm.None ? { start: 0, end: 0 } : span(l.groups, 'SerialNumber', def.id);
  const checkSpan =
    algorithm === Algorithm.None ? { start: 0, end: 0 } : span(l.groups, 'CheckDigit', def.id);
  const spec = def.checksum;
  const prefix = spec?.algorithm === 'mod10' ? mod10Prefix(spec) : { sum: 0, length: 0 };

  let candidate: CarrierCandidate | null = null;
  let carrierSpan: GroupSpan | null = null;
  let carrierCandidates: Map<number, CarrierCandidate> | null = null;
  if (def.carrierFromGroup) {
    carrierSpan = span(l.groups, def.carrierFromGroup.group, def.id);
    carrierCandidates = new Map();
    for (const [value, code] of def.carrierFromGroup.carriers) {
      carrierCandidates.set(keyOf(value), candidateFor(requireCarrier(code, def.id), format));
    }
  } else {
    candidate = candidateFor(requireCarrier(def.carrierCode, def.id), format);
  }

  const matcher: Matcher = {
    format,
    regex: format.regex,
    algorithm,
    serialStart: serialSpan.start,
    serialEnd: serialSpan.end,
    checkPos: checkSpan.start,
    checkAlphanumeric: algorithm === Algorithm.Mod3736,
    evens: spec?.algorithm === 'mod10' ? spec.evensMultiplier : 0,
    odds: spec?.algorithm === 'mod10' ? spec.oddsMultiplier : 0,
    prefixSum: prefix.sum,
    prefixLength: prefix.length,
    weights: spec?.algorithm === 'weighted-mod' ? spec.weightsFromRight : [],
    modulo1: spec?.algorithm === 'weighted-mod' ? spec.modulo1 : 0,
    modulo2: spec?.algorithm === 'weighted-mod' ? spec.modulo2 : 0,
    fieldChecks: (def.fieldChecks ?? []).map((c) => ({
      ...span(l.groups, c.group, def.id),
      allowed: new Set(c.allowed.map(keyOf)),
    })),
    candidate,
    carrierSpan,
    carrierCandidates,
  };
  return { matcher, firstPatterns: l.firstPatterns };
}

function expectedCheck(m: Matcher, s: string): number {
  switch (m.algorithm) {
    case Algorithm.Mod10:
      return mod10At(s, m.serialStart, m.serialEnd, m.evens, m.odds, m.prefixSum, m.prefixLength);
    case Algorithm.Mod7:
      return mod7At(s, m.serialStart, m.serialEnd);
    case Algorithm.S10:
      return s10At(s, m.serialStart, m.serialEnd);
    case Algorithm.Luhn:
      return luhnAt(s, m.serialStart, m.serialEnd);
    case Algorithm.Mod3736:
      return mod3736At(s, m.serialStart, m.serialEnd);
    case Algorithm.WeightedMod:
      return weightedModAt(s, m.serialStart, m.serialEnd, m.weights, m.modulo1, m.modulo2);
    default:
      return -1;
  }
}

/** The candidate this matcher yields for the normalised number, or null. */
function evaluate(m: Matcher, s: string): CarrierCandidate | null {
  if (!m.regex.test(s)) return null;
  if (m.algorithm !== Algorithm.None) {
    const expected = expectedCheck(m, s);
    if (expected < 0 || expected !== checkValueAt(s, m.checkPos, m.checkAlphanumeric)) {
      return null;
    }
  }
  for (let i = 0; i < m.fieldChecks.length; i++) {
    const c = m.fieldChecks[i];
    if (!c.allowed.has(keyAt(s, c.start, c.end))) return null;
  }
  if (m.carrierCandidates !== null && m.carrierSpan !== null) {
    return m.carrierCandidates.get(keyAt(s, m.carrierSpan.start, m.carrierSpan.end)) ?? null;
  }
  return m.candidate;
}

// Compilation and dispatch tables ----------------------------------------------------------

const MATCHERS: readonly Matcher[] = [];
/** DISPATCH[length][firstCharCode - 48] -> matchers to try. */
const DISPATCH: (Matcher[] | undefined)[][] = [];

for (const def of TRACKING_NUMBER_FORMATS) {
  const { matcher, firstPatterns } = compile(def);
  (MATCHERS as Matcher[]).push(matcher);
  const firstChar = new RegExp(`^(?:${firstPatterns.join('|')})$`);
  const row = (DISPATCH[matcher.format.length] ??= []);
  for (let code = FIRST_CODE; code <= LAST_CODE; code++) {
    if (firstChar.test(String.fromCharCode(code))) {
      (row[code - FIRST_CODE] ??= []).push(matcher);
    }
  }
}

interface PatternMatcher {
  regex: RegExp;
  prefix: string;
  minLength: number;
  candidate: CarrierCandidate;
}

const PATTERN_MATCHERS: readonly PatternMatcher[] = PATTERN_FORMATS.map((f) => ({
  regex: f.regex,
  prefix: f.prefix,
  minLength: f.minLength,
  candidate: Object.freeze({
    carrierCode: f.carrierCode,
    carrierName: requireCarrier(f.carrierCode, f.id).name,
    formatName: f.name,
    formatId: f.id,
    score: f.score,
    checksumValidated: false,
  }),
}));

/** All fixed-layout formats, compiled (for tests, generators and diagnostics). */
export const COMPILED_FORMATS: readonly CompiledFormat[] = Object.freeze(
  MATCHERS.map((m) => m.format),
);

// Public API -------------------------------------------------------------------------------

const CLEAN = /^[0-9A-Z]*$/;
const SEPARATORS = /[\s\-\u2010-\u2015\u2212]+/g;

/** Trim, drop whitespace and dashes, uppercase. Numbers already clean are returned as is. */
export function normaliseTrackingNumber(trackingNumber: string): string {
  if (CLEAN.test(trackingNumber)) return trackingNumber;
  return trackingNumber.replace(SEPARATORS, '').toUpperCase();
}

/** Adds a candidate, keeping only the best-scoring one per carrier when `dedupe` is set. */
function add(
  out: CarrierCandidate[] | null,
  c: CarrierCandidate,
  dedupe: boolean,
): CarrierCandidate[] {
  if (out === null) return [c];
  if (dedupe) {
    for (let i = 0; i < out.length; i++) {
      if (out[i].carrierCode === c.carrierCode) {
        if (c.score > out[i].score) out[i] = c;
        return out;
      }
    }
  }
  out.push(c);
  return out;
}

/** Every format the normalised number matches; null (no array) when none does. */
function collect(s: string, dedupe: boolean): CarrierCandidate[] | null {
  let out: CarrierCandidate[] | null = null;
  const length = s.length;
  for (let i = 0; i < PATTERN_MATCHERS.length; i++) {
    const p = PATTERN_MATCHERS[i];
    if (length >= p.minLength && s.startsWith(p.prefix) && p.regex.test(s))
      out = add(out, p.candidate, dedupe);
  }
  const row = DISPATCH[length];
  if (row === undefined) return out;
  const bucket = row[s.charCodeAt(0) - FIRST_CODE];
  if (bucket === undefined) return out;
  for (let i = 0; i < bucket.length; i++) {
    const c = evaluate(bucket[i], s);
    if (c !== null) out = add(out, c, dedupe);
  }
  return out;
}

const byRank = (a: CarrierCandidate, b: CarrierCandidate): number =>
  b.score - a.score || (a.carrierCode < b.carrierCode ? -1 : a.carrierCode > b.carrierCode ? 1 : 0);

/**
 * Every carrier the tracking number may belong to, best first: one entry per carrier (its
 * best-scoring format), ranked by score (check-digit formats above pattern-only ones, more
 * literal prefix above less), ties by carrier code. Empty when nothing matches.
 * The array is fresh; the candidate objects are shared and frozen.
 */
export function detectCarriers(trackingNumber: string): CarrierCandidate[] {
  const out = collect(normaliseTrackingNumber(trackingNumber), true);
  if (out === null) return [];
  if (out.length > 1) out.sort(byRank);
  return out;
}

/** Every matching format, including several of one carrier, unranked (diagnostics, tests). */
export function matchFormats(trackingNumber: string): CarrierCandidate[] {
  return collect(normaliseTrackingNumber(trackingNumber), false) ?? [];
}
