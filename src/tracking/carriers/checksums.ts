/**
 * Check-digit algorithms used by carriers, as pure functions.
 *
 * Every algorithm has two forms:
 * - a range form (`...At(s, start, end, ...)`) that reads the serial straight out of a
 *   larger string by char codes; the detector uses it so that testing a format allocates
 *   nothing;
 * - a string form (`...CheckDigit(serial, ...)`) that returns the expected check character,
 *   used by tests, generators and anyone who wants to compute a check digit.
 *
 * Range forms return the expected check value as a number (0-9, or 0-35 for mod 37/36);
 * `-1` means "this serial cannot carry a check digit" (e.g. a letter where a digit belongs).
 */

const CODE_0 = 48;
const CODE_9 = 57;
const CODE_A = 65;
const CODE_Z = 90;

/** Numeric value of a digit char code, or -1. */
function digitValue(code: number): number {
  return code >= CODE_0 && code <= CODE_9 ? code - CODE_0 : -1;
}

/**
 * Value of a character in the mod 10 family: digits are themselves, letters map to
 * `(charCode - 3) mod 10` (A=2, B=3, ... J=1, K=2, ...), as UPS defines for its 1Z numbers.
 */
function mod10CharValue(code: number): number {
  if (code >= CODE_0 && code <= CODE_9) return code - CODE_0;
  if (code >= CODE_A && code <= CODE_Z) return (code - 3) % 10;
  return -1;
}

/** Value of a character in base 36 (0-9, A-Z), or -1. */
function base36Value(code: number): number {
  if (code >= CODE_0 && code <= CODE_9) return code - CODE_0;
  if (code >= CODE_A && code <= CODE_Z) return code - CODE_A + 10;
  return -1;
}

/** The character for a check value 0-35. */
export function checkChar(value: number): string {
  return value < 10
    ? String.fromCharCode(CODE_0 + value)
    : String.fromCharCode(CODE_A + value - 10);
}

/** Parameters of the weighted mod 10 family (UPS, USPS, FedEx Ground, Canada Post, OnTrac). */
export interface Mod10Options {
  /** Multiplier of characters at even 0-based positions (counted from the serial's start). */
  evensMultiplier: number;
  /** Multiplier of characters at odd 0-based positions. */
  oddsMultiplier: number;
  /**
   * Characters that are logically in front of the serial without being printed (USPS
   * "91", FedEx SmartPost "92", OnTrac "C"). They shift the positions and add to the sum.
   */
  implicitPrefix?: string;
}

/** Sum and length of an implicit prefix, precomputed once per format. */
export interface Mod10Prefix {
  sum: number;
  length: number;
}

export function mod10Prefix(options: Mod10Options): Mod10Prefix {
  const prefix = options.implicitPrefix ?? '';
  let sum = 0;
  for (let i = 0; i < prefix.length; i++) {
    const v = mod10CharValue(prefix.charCodeAt(i));
    sum += v * (i % 2 === 1 ? options.oddsMultiplier : options.evensMultiplier);
  }
  return { sum, length: prefix.length };
}

/**
 * Weighted mod 10: sum of value x multiplier (alternating by position parity), the check
 * digit is what brings the sum up to the next multiple of ten.
 */
export function mod10At(
  s: string,
  start: number,
  end: number,
  evensMultiplier: number,
  oddsMultiplier: number,
  prefixSum = 0,
  prefixLength = 0,
): number {
  let sum = prefixSum;
  let index = prefixLength;
  for (let i = start; i < end; i++, index++) {
    const v = mod10CharValue(s.charCodeAt(i));
    if (v < 0) return -1;
    sum += v * ((index & 1) === 1 ? oddsMultiplier : evensMultiplier);
  }
  return (10 - (sum % 10)) % 10;
}

export function mod10CheckDigit(serial: string, options: Mod10Options): string {
  const prefix = mod10Prefix(options);
  const v = mod10At(
    serial,
    0,
    serial.length,
    options.evensMultiplier,
    options.oddsMultiplier,
    prefix.sum,
    prefix.length,
  );
  return v < 0 ? '' : checkChar(v);
}

/** Mod 7: the serial read as one integer, modulo 7 (DHL Express waybills). */
export function mod7At(s: string, start: number, end: number): number {
  let r = 0;
  for (let i = start; i < end; i++) {
    const d = digitValue(s.charCodeAt(i));
    if (d < 0) return -1;
    r = (r * 10 + d) % 7;
  }
  return r;
}

export function mod7CheckDigit(serial: string): string {
  const v = mod7At(serial, 0, serial.length);
  return v < 0 ? '' : checkChar(v);
}

/** UPU S10 weights for the eight serial digits. */
export const S10_WEIGHTS: readonly number[] = [8, 6, 4, 2, 3, 5, 9, 7];

/**
 * UPU S10: weighted sum with 8,6,4,2,3,5,9,7, check = 11 - (sum mod 11), where 10 becomes 0
 * and 11 becomes 5.
 */
export function s10At(s: string, start: number, end: number): number {
  if (end - start !== 8) return -1;
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const d = digitValue(s.charCodeAt(start + i));
    if (d < 0) return -1;
    sum += d * S10_WEIGHTS[i];
  }
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

export function s10CheckDigit(serial: string): string {
  const v = s10At(serial, 0, serial.length);
  return v < 0 ? '' : checkChar(v);
}

/**
 * Luhn: from the rightmost serial digit leftwards, every other digit (starting with the
 * rightmost) is doubled and its digits summed; the check digit completes a multiple of 10.
 */
export function luhnAt(s: string, start: number, end: number): number {
  let sum = 0;
  let double = true;
  for (let i = end - 1; i >= start; i--) {
    let d = digitValue(s.charCodeAt(i));
    if (d < 0) return -1;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return (10 - (sum % 10)) % 10;
}

export function luhnCheckDigit(serial: string): string {
  const v = luhnAt(serial, 0, serial.length);
  return v < 0 ? '' : checkChar(v);
}

/**
 * ISO/IEC 7064 MOD 37,36 (hybrid system over 0-9A-Z), used by DPD parcel numbers.
 * Returns the check value 0-35 (rendered 0-9, A-Z).
 */
export function mod3736At(s: string, start: number, end: number): number {
  const m = 36;
  let p = m;
  for (let i = start; i < end; i++) {
    const v = base36Value(s.charCodeAt(i));
    if (v < 0) return -1;
    p += v;
    if (p > m) p -= m;
    p *= 2;
    if (p > m) p -= m + 1;
  }
  const check = m + 1 - p;
  return check === m ? 0 : check;
}

export function mod3736CheckChar(serial: string): string {
  const v = mod3736At(serial, 0, serial.length);
  return v < 0 ? '' : checkChar(v);
}

/** Parameters of a weighted sum reduced by two moduli (FedEx Express: 1,3,7 then mod 11, mod 10). */
export interface WeightedModOptions {
  /** Weights applied from the rightmost serial digit leftwards, repeating. */
  weightsFromRight: readonly number[];
  modulo1: number;
  modulo2: number;
}

export function weightedModAt(
  s: string,
  start: number,
  end: number,
  weightsFromRight: readonly number[],
  modulo1: number,
  modulo2: number,
): number {
  let sum = 0;
  const n = weightsFromRight.length;
  for (let i = end - 1, w = 0; i >= start; i--, w = w + 1 === n ? 0 : w + 1) {
    const d = digitValue(s.charCodeAt(i));
    if (d < 0) return -1;
    sum += d * weightsFromRight[w];
  }
  return (sum % modulo1) % modulo2;
}

export function weightedModCheckDigit(serial: string, options: WeightedModOptions): string {
  const v = weightedModAt(
    serial,
    0,
    serial.length,
    options.weightsFromRight,
    options.modulo1,
    options.modulo2,
  );
  return v < 0 ? '' : checkChar(v);
}

/** Value of the check character at position `i` as the algorithms return it, or -1. */
export function checkValueAt(s: string, i: number, alphanumeric: boolean): number {
  const code = s.charCodeAt(i);
  return alphanumeric ? base36Value(code) : digitValue(code);
}
