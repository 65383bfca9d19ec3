import { BUCKETS, type HistogramView } from './buckets';
import { LEVEL_COUNT } from './lanes';
import { STAGE_COUNT } from './stages';

/**
 * What a team has learnt at one (level, key): per stage, three measures, each a vector of counts
 * in one numbering (`statIndex`), which is also how the deltas are stored in SQL (sparse:
 * `idx int[]`, `n int[]`):
 * - REMAINING: histogram of the time from entering the stage to the delivery;
 * - SILENCE: histogram of the longest silence the parcel spent in the stage;
 * - COVERAGE: bucket 0 = windows that missed the delivery, 1 = windows that held it.
 */
export const REMAINING = 0;
export const SILENCE = 1;
export const COVERAGE = 2;
export const MEASURES = 4;
/** Slots per (stage, measure): a power of two above BUCKETS. */
export const SLOT = 128;
export const VECTOR_SIZE = STAGE_COUNT * MEASURES * SLOT;

export function statIndex(stage: number, measure: number, bucket: number): number {
  return (stage * MEASURES + measure) * SLOT + bucket;
}

export function decodeStatIndex(idx: number): { stage: number; measure: number; bucket: number } {
  const slot = Math.floor(idx / SLOT);
  return { stage: Math.floor(slot / MEASURES), measure: slot % MEASURES, bucket: idx % SLOT };
}

/** The counts of one (level, key), dense, with the total of each (stage, measure). */
export class StatsVector {
  readonly counts = new Float64Array(VECTOR_SIZE);
  readonly totals = new Float64Array(STAGE_COUNT * MEASURES);

  add(idx: number, n: number): void {
    if (!(idx >= 0 && idx < VECTOR_SIZE) || idx % SLOT >= BUCKETS) return;
    this.counts[idx] += n;
    this.totals[Math.floor(idx / SLOT)] += n;
  }

  histogram(stage: number, measure: number): HistogramView {
    const slot = stage * MEASURES + measure;
    return { counts: this.counts, offset: slot * SLOT, total: this.totals[slot] };
  }

  total(stage: number, measure: number): number {
    return this.totals[stage * MEASURES + measure];
  }

  coverage(stage: number): { hits: number; trials: number } {
    const at = statIndex(stage, COVERAGE, 0);
    return { hits: this.counts[at + 1], trials: this.counts[at] + this.counts[at + 1] };
  }

  /** The non-zero entries, ascending: the sparse form SQL stores. */
  entries(): { idx: number[]; n: number[] } {
    const idx: number[] = [];
    const n: number[] = [];
    for (let i = 0; i < VECTOR_SIZE; i++)
      if (this.counts[i] !== 0) {
        idx.push(i);
        n.push(this.counts[i]);
      }
    return { idx, n };
  }
}

/** Where predictions read what a team learnt: the vector of a (level, key), if any. */
export interface StatsLookup {
  vector(level: number, key: string): StatsVector | undefined;
}

/** A team's stats in memory: loaded from the store's rows, or learnt by a replay. */
export class MemoryStats implements StatsLookup {
  private readonly vectors = new Map<string, StatsVector>();

  vector(level: number, key: string): StatsVector | undefined {
    return this.vectors.get(mapKey(level, key));
  }

  /** Adds sparse entries (n defaults to 1 each) to a (level, key). */
  add(level: number, key: string, idx: readonly number[], n?: readonly number[]): void {
    if (!(level >= 0 && level < LEVEL_COUNT)) return;
    const k = mapKey(level, key);
    let v = this.vectors.get(k);
    if (!v) this.vectors.set(k, (v = new StatsVector()));
    for (let i = 0; i < idx.length; i++) v.add(idx[i], n ? n[i] : 1);
  }

  /** Every (level, key) with its non-zero entries. */
  *keys(): IterableIterator<{ level: number; key: string; vector: StatsVector }> {
    for (const [k, vector] of this.vectors) {
      const sep = k.indexOf('\u0000');
      yield { level: Number(k.slice(0, sep)), key: k.slice(sep + 1), vector };
    }
  }
}

function mapKey(level: number, key: string): string {
  return `${level}\u0000${key}`;
}
