import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';
import { notesOfDeletedRows } from '../notes/note-sweep-store';
import { retentionStatements } from '../retention/retention-rule';

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

/** The workflow_run table's SQL: runs of webhook deliveries, and their move with a workflow. */
@Injectable()
export class WorkflowRunStore {
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
