/**
 * Carrier detection throughput on one core.
 *
 *   node -r ts-node/register/transpile-only bench/carrier-detection.bench.ts [--size N] [--rounds N]
 *
 * Builds a reproducible mixed corpus (valid numbers of every format, some written with
 * spaces/dashes/lowercase, test-carrier numbers and junk), warms up, then times several
 * rounds over the whole corpus. Exits 1 when the median round is below the target.
 */
import { COMPILED_FORMATS, detectCarriers } from '../src/tracking/carriers/carrier-detector';
import {
  generateTrackingNumber,
  Random,
  seededRandom,
} from '../src/tracking/carriers/tracking-number-generator';

const TARGET_PER_SECOND = 500_000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const SIZE = arg('size', 100_000);
const ROUNDS = arg('rounds', 7);

function messy(n: string, rnd: Random): string {
  let out = rnd() < 0.5 ? n.toLowerCase() : n;
  const at = 1 + Math.floor(rnd() * (out.length - 1));
  out = out.slice(0, at) + (rnd() < 0.5 ? ' ' : '-') + out.slice(at);
  return ` ${out} `;
}

function junk(rnd: Random): string {
  const alphabets = ['0123456789', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 'abc def-123 #/.'];
  const alphabet = alphabets[Math.floor(rnd() * alphabets.length)];
  const length = 1 + Math.floor(rnd() * 36);
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
  return s;
}

function buildCorpus(size: number): string[] {
  const rnd = seededRandom(20240601);
  const corpus: string[] = [];
  for (let i = 0; i < size; i++) {
    const kind = rnd();
    if (kind < 0.7) {
      const format = COMPILED_FORMATS[i % COMPILED_FORMATS.length];
      corpus.push(generateTrackingNumber(format, rnd));
    } else if (kind < 0.8) {
      const format = COMPILED_FORMATS[i % COMPILED_FORMATS.length];
      corpus.push(messy(generateTrackingNumber(format, rnd), rnd));
    } else if (kind < 0.82) {
      corpus.push(`TM${String(Math.floor(rnd() * 1000)).padStart(3, '0')}${junk(rnd)}TM`);
    } else {
      corpus.push(junk(rnd));
    }
  }
  return corpus;
}

function run(corpus: readonly string[]): number {
  let found = 0;
  for (let i = 0; i < corpus.length; i++) found += detectCarriers(corpus[i]).length;
  return found;
}

function main(): void {
  const corpus = buildCorpus(SIZE);
  let checksum = 0;
  for (let i = 0; i < 3; i++) checksum += run(corpus); // warm-up: let the JIT settle

  const rates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    checksum += run(corpus);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    rates.push(corpus.length / seconds);
  }
  const sorted = [...rates].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const matched = corpus.filter((n) => detectCarriers(n).length > 0).length;
  const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');

  console.log(`carrier detection: ${corpus.length} numbers, ${COMPILED_FORMATS.length} formats`);
  console.log(
    `  with at least one candidate: ${matched} (${((100 * matched) / corpus.length).toFixed(1)}%)`,
  );
  console.log(`  node ${process.version}, ${ROUNDS} rounds after 3 warm-up rounds`);
  console.log(`  per round (numbers/s): ${rates.map(fmt).join(', ')}`);
  console.log(
    `  min ${fmt(sorted[0])}, median ${fmt(median)}, max ${fmt(sorted[sorted.length - 1])}`,
  );
  console.log(
    `  target ${fmt(TARGET_PER_SECOND)}/s: ${median >= TARGET_PER_SECOND ? 'OK' : 'BELOW TARGET'}`,
  );
  if (checksum < 0) console.log(checksum); // keeps the work observable
  if (median < TARGET_PER_SECOND) process.exitCode = 1;
}

main();
