/** Fewest characters of a secret the user makes up (a webhook secret shared with a provider). */
export const MIN_CHOSEN_SECRET_LENGTH = 16;
/** Fewest different characters: fewer is a pattern, not randomness. */
const MIN_DISTINCT = 6;
/** Least Shannon entropy per character of the secret's own character counts, in bits. */
const MIN_BITS_PER_CHARACTER = 2;

/**
 * Why a secret the user chooses is too easy to guess, or null when it looks random enough: at
 * least 16 characters, at least 6 different ones spread evenly enough (2 bits per character
 * by their own counts: `aaaaaaaaaaaaaaab` is not), not one short part repeated
 * (`abcabcabcabc...`), not mostly a run of neighbouring characters (`0123456789abcdef`). Random
 * secrets of 16 characters and more (hex, base64, letters and digits) pass; the rules only
 * catch what a person types. Pure; the message never quotes the secret.
 */
export function chosenSecretProblem(secret: string): string | null {
  const chars = [...secret];
  if (chars.length < MIN_CHOSEN_SECRET_LENGTH) {
    return `This value is too short. It should have ${MIN_CHOSEN_SECRET_LENGTH} characters or more.`;
  }
  if (
    new Set(chars).size < MIN_DISTINCT ||
    bitsPerCharacter(chars) < MIN_BITS_PER_CHARACTER ||
    repeatsAPart(chars) ||
    mostlyARun(chars)
  ) {
    return `This secret is too easy to guess: use ${MIN_CHOSEN_SECRET_LENGTH} or more random characters (e.g. \`openssl rand -hex 16\`).`;
  }
  return null;
}

/** Shannon entropy per character of the characters' frequencies in the string itself. */
function bitsPerCharacter(chars: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / chars.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Whether the string is one part of at most half its length, repeated (the last maybe cut). */
function repeatsAPart(chars: readonly string[]): boolean {
  for (let period = 1; period <= chars.length / 2; period++) {
    if (chars.every((c, i) => i < period || c === chars[i - period])) return true;
  }
  return false;
}

/** Whether more than half the neighbours are consecutive characters (`abcd`, `9876`). */
function mostlyARun(chars: readonly string[]): boolean {
  let steps = 0;
  for (let i = 1; i < chars.length; i++) {
    if (Math.abs(chars[i].codePointAt(0)! - chars[i - 1].codePointAt(0)!) === 1) steps++;
  }
  return steps * 2 > chars.length - 1;
}
