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

/** A rebuild's progress: its walk over every shipment, then over the delivered ones. */
export type RebuildProgress = (
  walk: 'shipments' | 'deliveries',
  done: number,
  total: number,
) => Promise<void> | void;

/**
 * The full recomputation of a team's aggregates from its shipments and checkpoints: `compute`
 * in memory, for the exactness check ("deltas applied incrementally equal a recomputation");
 * `rebuild` page by page, to fill the aggregates of existing shipments (the backfill, the
 * CLI). Promises are kept from the stored contributions (they cannot be derived later).
 * Coverage depends on the order deliveries were learnt: both replay them in delivery order,
 * as they arrive when tracking is current.
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
   * per transaction, in the order `recompute` takes: memory bounded by the team's deliveries
   * (an id and a time each), not by its history. Each page is read after its shipments are
   * locked, as every writer of their predictions does, so a refresh meanwhile is never
   * overwritten with older facts. Two walks:
   * 1. every shipment by id: a parcel not delivered needs no stats (its contribution has no
   *    coverage), so it is written at once; a delivered one is noted with its delivery time;
   * 2. the delivered ones in delivery order (ties by id), each counted with the stats of those
   *    before it, as they arrive when tracking is current.
   * Promises are kept from the stored contributions (they cannot be derived later). Answers how
   * many contributions it wrote; `progress` hears of each page.
   */
  async rebuild(teamId: string, progress?: RebuildProgress): Promise<number> {
    const workspaces = await this.source.workspacesOfTeam(this.db, teamId);
    const total = await this.source.countOf(this.db, workspaces);
    const delivered: { id: string; at: number }[] = [];
    // Parcels not delivered read no stats and add none: one running sum serves both walks.
    const stats = new MemoryStats();
    let changed = 0;
    let walked = 0;
    for (let after: string | null = null; ;) {
      const ids = await this.source.idsOf(this.db, workspaces, after, PAGE);
      if (ids.length === 0) break;
      after = ids[ids.length - 1];
      changed += await this.applyPage(teamId, ids, stats, (s) => {
        const at = journeyOf(s.facts).deliveredAt;
        if (at !== null) delivered.push({ id: s.shipmentId, at });
        return at !== null;
      });
      walked += ids.length;
      await progress?.('shipments', walked, Math.max(total, walked));
    }
    delivered.sort(inDeliveryOrder);
    for (let i = 0; i < delivered.length; i += PAGE) {
      const ids = delivered.slice(i, i + PAGE).map((d) => d.id);
      changed += await this.applyPage(teamId, ids, stats);
      await progress?.('deliveries', i + ids.length, delivered.length);
    }
    return changed;
  }

  /**
   * One page of `rebuild` in its own transaction: the shipments locked and their facts read;
   * those `later` puts off skipped; the others' contributions computed in the order of `ids`,
   * each counted with `stats` and then added to it, and written against their stored ones.
   */
  private applyPage(
    teamId: string,
    ids: readonly string[],
    stats: MemoryStats,
    later: (facts: SourcedFacts) => boolean = () => false,
  ): Promise<number> {
    return this.db.transaction(async (em) => {
      await this.source.lock(em, ids);
      const facts = await this.source.byIds(em, teamId, ids);
      // In the order of `ids`; a shipment deleted meanwhile is missing.
      const due = ids.flatMap((id) => {
        const s = facts.get(id);
        return s && !later(s) ? [s] : [];
      });
      const { contributions: stored } = await this.store.readBatch(
        em,
        due.map((s) => s.shipmentId),
        [],
      );
      return this.store.apply(
        em,
        due.map((s) => countedIn(stats, s, stored.get(s.shipmentId)?.promises ?? null)),
      );
    });
  }
}

/** The recomputation itself, pure: contributions in delivery order, and their sums. */
export function recompute(
  shipments: readonly SourcedFacts[],
  promisesOf: (shipmentId: string) => ContributionChange['promises'] | null,
): Recomputation {
  const ordered = shipments
    .map((s) => ({ s, id: s.shipmentId, at: journeyOf(s.facts).deliveredAt ?? Infinity }))
    .sort(inDeliveryOrder);
  const stats = new MemoryStats();
  const performance = new Map<string, Map<string, Map<number, number>>>();
  const contributions: ContributionChange[] = [];
  for (const { s } of ordered) {
    const change = countedIn(stats, s, promisesOf(s.shipmentId));
    addToPerformance(performance, s.workspaceId, change.contribution);
    contributions.push(change);
  }
  return { contributions, stats, performance };
}

/** The order deliveries are learnt in: by delivery time, then by shipment id. */
function inDeliveryOrder(a: { at: number; id: string }, b: { at: number; id: string }): number {
  return a.at - b.at || (a.id < b.id ? -1 : 1);
}

/**
 * A shipment's contribution counted with `stats` (the deliveries learnt before it), then added
 * to them; `promises` as stored, none when nothing is.
 */
function countedIn(
  stats: MemoryStats,
  s: SourcedFacts,
  promises: ContributionChange['promises'] | null,
): ContributionChange {
  const kept = promises ?? { carrierDate: null, windowLatest: null };
  const contribution = contributionOf(s.facts, { promises: kept, stats });
  addToStats(stats, contribution);
  return {
    shipmentId: s.shipmentId,
    teamId: s.teamId,
    workspaceId: s.workspaceId,
    contribution,
    promises: kept,
  };
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
