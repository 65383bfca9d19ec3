import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '../database/query';
import {
  ShipmentPredictionStore,
  type ShipmentPredictionRow,
} from '../shipments/shipment-prediction-store';
import { CheckpointTimelineStore } from '../tracking/checkpoints/checkpoint-timeline-store';
import { WorkspaceLookupStore } from '../workspaces/workspace-lookup-store';
import type { ShipmentFacts } from './contribution';
import { factsOf } from './shipment-facts';

/** One shipment's facts, with where it belongs. */
export interface SourcedFacts {
  shipmentId: string;
  workspaceId: string;
  teamId: string;
  facts: ShipmentFacts;
}

/**
 * The shipments of a team (or of one workspace) and their checkpoints, a page at a time (by
 * id), through the stores of the modules that own them: the recomputation and the backtest.
 */
@Injectable()
export class ShipmentFactsSource {
  constructor(
    private readonly shipments: ShipmentPredictionStore,
    private readonly checkpoints: CheckpointTimelineStore,
    private readonly workspaces: WorkspaceLookupStore,
  ) {}

  /**
   * Locks these shipments as every writer of their predictions does (in id order), so that a
   * contribution stored meanwhile by a refresh or a write is read, never overwritten unseen.
   */
  lock(runner: SqlRunner, shipmentIds: readonly string[]): Promise<void> {
    return this.shipments.lock(runner, shipmentIds);
  }

  /** The workspaces of a team (the scope of `pageOf`). */
  workspacesOfTeam(runner: SqlRunner, teamId: string): Promise<string[]> {
    return this.workspaces.idsOfTeam(runner, teamId);
  }

  async pageOf(
    runner: SqlRunner,
    teamId: string,
    workspaceIds: readonly string[],
    afterId: string | null,
    limit: number,
  ): Promise<SourcedFacts[]> {
    if (workspaceIds.length === 0) return [];
    return this.sourced(
      runner,
      teamId,
      await this.shipments.page(runner, workspaceIds, afterId, limit),
    );
  }

  /** A page (by id) of the ids of these workspaces' shipments. */
  idsOf(
    runner: SqlRunner,
    workspaceIds: readonly string[],
    afterId: string | null,
    limit: number,
  ): Promise<string[]> {
    return this.shipments.ids(runner, workspaceIds, afterId, limit);
  }

  /** How many shipments these workspaces hold. */
  countOf(runner: SqlRunner, workspaceIds: readonly string[]): Promise<number> {
    return this.shipments.countOf(runner, workspaceIds);
  }

  /** The facts of these shipments of the team, by id (a deleted one is missing). */
  async byIds(
    runner: SqlRunner,
    teamId: string,
    shipmentIds: readonly string[],
  ): Promise<Map<string, SourcedFacts>> {
    const found = await this.sourced(
      runner,
      teamId,
      await this.shipments.rows(runner, shipmentIds),
    );
    return new Map(found.map((s) => [s.shipmentId, s]));
  }

  /** Every shipment of the team's workspaces (or of the given ones). */
  async all(
    runner: SqlRunner,
    teamId: string,
    workspaceIds?: readonly string[],
  ): Promise<SourcedFacts[]> {
    const scope = workspaceIds ?? (await this.workspacesOfTeam(runner, teamId));
    const all: SourcedFacts[] = [];
    for (let after: string | null = null; ;) {
      const page = await this.pageOf(runner, teamId, scope, after, PAGE);
      all.push(...page);
      if (page.length < PAGE) break;
      after = page[page.length - 1].shipmentId;
    }
    return all;
  }

  /** These rows' facts, with their checkpoints (one statement for the rows' timelines). */
  private async sourced(
    runner: SqlRunner,
    teamId: string,
    rows: readonly ShipmentPredictionRow[],
  ): Promise<SourcedFacts[]> {
    const timelines = await this.checkpoints.timelines(
      runner,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      shipmentId: row.id,
      workspaceId: row.workspace_id,
      teamId,
      facts: factsOf(row, timelines.get(row.id) ?? []),
    }));
  }
}

const PAGE = 1000;
