import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SqlRunner } from '../database/query';
import { addToStats, contributionOf, performanceRowsOf, type Contribution } from './contribution';
import { dayString } from './analytics/carrier-performance';
import { journeyOf } from './model/stages';
import { MemoryStats } from './model/stats';
import { PredictionStore, type ContributionChange } from './prediction-store';
import { ShipmentFactsSource, type SourcedFacts } from './shipment-facts-source';

/** What the aggregates of a team must be, recomputed from its shipments and checkpoints. */
export interface Recomputation {
  contributions: ContributionChange[];
  /** delivery_stat, summed. */
  stats: MemoryStats;
  /** carrier_performance_stat per workspace, summed: `span|day|carrier|destination` -> idx -> n. */
  performance: Map<string, Map<string, Map<number, number>>>;
}

const PAGE = 1000;

/**
 * The full recomputation of a team's aggregates from its shipments and checkpoints, for the
 * exactness check ("deltas applied incrementally equal a recomputation") and to fill the
 * aggregates of existing shipments (`rebuild`). Promises are kept from the stored
 * contributions (they cannot be derived later). Coverage depends on the order deliveries were
 * learnt: the recomputation replays them in delivery order, as they arrive when tracking is
 * current.
 */
@Injectable()
export class PredictionRecompute {
  constructor(
    private readonly db: DataSource,
    private readonly store: PredictionStore,
    private readonly source: ShipmentFactsSource,
  ) {}

  async compute(teamId: string, runner: SqlRunner = this.db): Promise<Recomputation> {
    const all = await this.source.all(runner, teamId);
    const stored = await this.store.contributionsOfTeam(runner, teamId);
    return recompute(all, (id) => stored.get(id)?.promises ?? null);
  }

  /**
   * Recomputes the team's contributions and stores them (applying only what differs), a page
   * per transaction holding its shipments' locks. A refresh of one of them holds its lock from
   * before it reads the stored contribution until it commits, so the two take turns: without
   * the lock, a first contribution stored by the rebuild between that read and the refresh's
   * write (no row to lock yet) was counted twice. Answers how many contributions it wrote;
   * `progress` hears of each page (shipments done, of how many).
   */
  async rebuild(
    teamId: string,
    progress?: (done: number, total: number) => Promise<void> | void,
  ): Promise<number> {
    const { contributions } = await this.compute(teamId);
    let changed = 0;
    for (let i = 0; i < contributions.length; i += PAGE) {
      const page = contributions.slice(i, i + PAGE);
      changed += await this.db.transaction(async (em) => {
        await this.source.lock(
          em,
          page.map((c) => c.shipmentId),
        );
        return this.store.apply(em, page);
      });
      await progress?.(i + page.length, contributions.length);
    }
    return changed;
  }
}

/** The recomputation itself, pure: contributions in delivery order, and their sums. */
export function recompute(
  shipments: readonly SourcedFacts[],
  promisesOf: (shipmentId: string) => ContributionChange['promises'] | null,
): Recomputation {
  const ordered = shipments
    .map((s) => ({ s, deliveredAt: journeyOf(s.facts).deliveredAt ?? Infinity }))
    .sort((a, b) => a.deliveredAt - b.deliveredAt || (a.s.shipmentId < b.s.shipmentId ? -1 : 1));
  const stats = new MemoryStats();
  const performance = new Map<string, Map<string, Map<number, number>>>();
  const contributions: ContributionChange[] = [];
  for (const { s } of ordered) {
    const promises = promisesOf(s.shipmentId) ?? { carrierDate: null, windowLatest: null };
    const contribution = contributionOf(s.facts, { promises, stats });
    addToStats(stats, contribution);
    addToPerformance(performance, s.workspaceId, contribution);
    contributions.push({
      shipmentId: s.shipmentId,
      teamId: s.teamId,
      workspaceId: s.workspaceId,
      contribution,
      promises,
    });
  }
  return { contributions, stats, performance };
}

function addToPerformance(
  performance: Recomputation['performance'],
  workspaceId: string,
  c: Contribution,
): void {
  let ws = performance.get(workspaceId);
  if (!ws) performance.set(workspaceId, (ws = new Map()));
  for (const row of performanceRowsOf(c)) {
    const id = `${row.span}|${dayString(row.day)}|${row.carrier}|${row.destination}`;
    let counts = ws.get(id);
    if (!counts) ws.set(id, (counts = new Map()));
    for (const idx of row.idx) {
      const n = (counts.get(idx) ?? 0) + 1;
      if (n === 0) counts.delete(idx);
      else counts.set(idx, n);
    }
  }
}
