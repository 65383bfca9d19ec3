import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';
import { notesOfDeletedRows } from '../notes/note-sweep-store';
import { retentionStatements } from '../retention/retention-rule';
import type { WorkflowRunCounts } from './workflow-run-counts';

/** A delivery attempt starting: recorded as a `running` run (so runInProgress shows it). */
export interface StartedRun {
  workspaceId: string;
  workflowId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  startedAt: Date;
}

/** How the attempt ended. */
export interface FinishedRun {
  status: 'success' | 'failed';
  responseCode: number | null;
  /** Milliseconds the attempt took. */
  duration: number;
  log: string;
  errors: string | null;
  finishedAt: Date;
}

/** How a store sync run ended (src/store-sync). */
export interface FinishedCountedRun {
  status: 'success' | 'failed';
  counts: WorkflowRunCounts;
  errors: string | null;
  log: string;
  finishedAt: Date;
}

/**
 * The workflow_run table's SQL: runs of webhook deliveries and of store syncs, and their move
 * with a workflow.
 */
@Injectable()
export class WorkflowRunStore {
  /** A store sync run starting: `running` (runInProgress) with its counts at zero. */
  async startCounted(
    runner: SqlRunner,
    run: { workspaceId: string; workflowId: string; startedAt: Date; counts: WorkflowRunCounts },
  ): Promise<string> {
    const row = await queryOne<{ id: string }>(
      runner,
      `INSERT INTO workflow_run (workspace_id, workflow_id, status, started_at, counts)
       VALUES ($1, $2, 'running', $3, $4::jsonb) RETURNING id`,
      [run.workspaceId, run.workflowId, run.startedAt, JSON.stringify(run.counts)],
    );
    return row!.id;
  }

  /** The counts so far, while it runs (a long backfill shows its progress). */
  async progress(runner: SqlRunner, id: string, counts: WorkflowRunCounts): Promise<void> {
    await query(
      runner,
      `UPDATE workflow_run SET counts = $2::jsonb, updated_at = now()
        WHERE id = $1 AND status = 'running'`,
      [id, JSON.stringify(counts)],
    );
  }

  async finishCounted(runner: SqlRunner, id: string, run: FinishedCountedRun): Promise<void> {
    await query(
      runner,
      `UPDATE workflow_run SET status = $2, counts = $3::jsonb, errors = $4, log = $5,
              finished_at = $6, duration = GREATEST(0, (extract(epoch FROM $6::timestamptz - started_at) * 1000)::int),
              updated_at = now()
        WHERE id = $1`,
      [id, run.status, JSON.stringify(run.counts), run.errors, run.log, run.finishedAt],
    );
  }

  /** A run still `running` whose node stopped (its lease ran out): failed with the reason. */
  async abandon(runner: SqlRunner, id: string, reason: string, at: Date): Promise<void> {
    await query(
      runner,
      `UPDATE workflow_run SET status = 'failed', errors = $2, finished_at = $3, updated_at = now()
        WHERE id = $1 AND status = 'running'`,
      [id, reason, at],
    );
  }

  async start(runner: SqlRunner, run: StartedRun): Promise<string> {
    const row = await queryOne<{ id: string }>(
      runner,
      `INSERT INTO workflow_run (workspace_id, workflow_id, status, event_id, event_type, attempt, started_at)
       VALUES ($1, $2, 'running', $3, $4, $5, $6) RETURNING id`,
      [run.workspaceId, run.workflowId, run.eventId, run.eventType, run.attempt, run.startedAt],
    );
    return row!.id;
  }

  async finish(runner: SqlRunner, id: string, run: FinishedRun): Promise<void> {
    await query(
      runner,
      `UPDATE workflow_run SET status = $2, response_code = $3, duration = $4, log = $5,
              errors = $6, finished_at = $7, updated_at = now() WHERE id = $1`,
      [id, run.status, run.responseCode, run.duration, run.log, run.errors, run.finishedAt],
    );
  }

  /** The runs of a workflow moved to another workspace go with it. */
  async moveTo(runner: SqlRunner, workflowId: string, workspaceId: string): Promise<void> {
    await query(
      runner,
      'UPDATE workflow_run SET workspace_id = $2 WHERE workflow_id = $1 AND workspace_id <> $2',
      [workflowId, workspaceId],
    );
  }
}

/**
 * Runs are kept RETENTION_DAYS_WORKFLOW_RUNS from their creation; a run still `running` that
 * old was left by a node that died. The notes on them go in the same statement.
 */
export const WORKFLOW_RUN_RETENTION = retentionStatements({
  table: 'workflow_run',
  category: 'workflowRuns',
  where: 'x.created_at < $1',
  notes: notesOfDeletedRows('workflow_runs'),
});
