import type { DataSource } from 'typeorm';
import { ShipmentPredictionStore } from '../shipments/shipment-prediction-store';
import { CheckpointTimelineStore } from '../tracking/checkpoints/checkpoint-timeline-store';
import { WorkspaceLookupStore } from '../workspaces/workspace-lookup-store';
import { formatBacktest, runBacktest, type BacktestReport } from './backtest/backtest';
import { PredictionBackfillStore, type BackfillRow } from './prediction-backfill-store';
import { PredictionRecompute } from './prediction-recompute';
import { PredictionStore } from './prediction-store';
import { ShipmentFactsSource } from './shipment-facts-source';

/**
 * The predictions' services on a bare DataSource, for the CLI (no application context: the
 * stores hold no state).
 */
export function predictionTools(db: DataSource) {
  const workspaces = new WorkspaceLookupStore();
  const source = new ShipmentFactsSource(
    new ShipmentPredictionStore(),
    new CheckpointTimelineStore(),
    workspaces,
  );
  const recompute = new PredictionRecompute(db, new PredictionStore(db), source);
  const backfillQueue = new PredictionBackfillStore();
  return {
    teamOf: (workspaceId: string) => workspaces.teamOf(db, workspaceId),
    /** Rebuilds a team's aggregates from its shipments (after a bulk load). */
    rebuild: (teamId: string) => recompute.rebuild(teamId),
    /** Queues the team for the background backfill (PredictionBackfill). */
    queueBackfill: (teamId: string) => backfillQueue.enqueue(db, teamId),
    /** The backfill queue, the unfinished first. */
    backfills: (): Promise<BackfillRow[]> => backfillQueue.list(db),
    /** The backtest of one workspace's history (read through the owning stores). */
    async report(teamId: string, workspaceId: string, since: Date | null): Promise<BacktestReport> {
      const facts = await source.all(db, teamId, [workspaceId]);
      return runBacktest(
        facts.map((f) => f.facts),
        { since },
      );
    },
    /** The same, as printed by `backtest-predictions`. */
    async backtest(teamId: string, workspaceId: string, since: Date | null): Promise<string> {
      return formatBacktest(await this.report(teamId, workspaceId, since));
    },
  };
}
