import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';
import { VisibleMemory } from '../hydra/collection/visible-memory';
import { teamWorkspacesSql } from '../workspaces/workspace-lookup-store';

/** A webhook workflow as the dispatch of an event decides whether it wants it. */
export interface WebhookTarget {
  id: string;
  period: string;
  /** Set: the reference's form (its own url and filter); null: signed, through credentials. */
  url: string | null;
  entity: string | null;
  event: string | null;
  field: string | null;
}

/** What a delivery attempt needs of its workflow. */
export interface DeliveredWorkflow {
  workspace_id: string;
  enabled: boolean;
  credentials_id: string | null;
  url: string | null;
  auth_type: string | null;
  username: string | null;
  password: string | null;
}

/** A store workflow as its runs read it (src/store-sync). */
export interface StoreRunWorkflow {
  id: string;
  type: string;
  workspace_id: string;
  title: string | null;
  enabled: boolean;
  passive: boolean;
  period: string;
  credentials_id: string | null;
  first_time_setup_passed: boolean;
  notification_emails: string[];
}

/** Who hears of a webhook delivery given up. */
export interface WorkflowFailureNotice {
  title: string | null;
  notificationEmails: string[];
  workspaceId: string;
}

/**
 * The workflow table's SQL: the rules' reads, what event delivery needs (targets, the
 * workflow of an attempt, disabling one whose credentials are refused), and the suggestions
 * users send (`workflow_suggestion`).
 */
/** Pieces of SQL over workflows for other modules' statements. Arguments are SQL expressions. */
export const workflowSql = {
  /** The workflow's type (`shopify`, ...): text, null when there is no such workflow. */
  typeOf: (workflowId: string): string =>
    `(SELECT wf.type FROM workflow wf WHERE wf.id = ${workflowId})`,
};

@Injectable()
export class WorkflowStore {
  /**
   * The workspace of each of these workflows (those that exist). A transaction that remembers
   * its references (an import: every line, parcel and parcel item names its workflow) reads
   * each workflow's once, until it deletes or moves something (VisibleMemory).
   */
  async workspacesOf(runner: SqlRunner, ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unknown: string[] = [];
    for (const id of ids) {
      const known = VisibleMemory.recall(runner, `workflow.workspace/${id}`);
      if (known === undefined) unknown.push(id);
      else out.set(id, known);
    }
    if (unknown.length === 0) return out;
    const rows = await query<{ id: string; workspace_id: string }>(
      runner,
      'SELECT id, workspace_id FROM workflow WHERE id = ANY($1::uuid[])',
      [unknown],
    );
    for (const r of rows) {
      VisibleMemory.note(runner, `workflow.workspace/${r.id}`, r.workspace_id);
      out.set(r.id, r.workspace_id);
    }
    return out;
  }

  async workspaceOf(runner: SqlRunner, id: string): Promise<string | null> {
    const row = await queryOne<{ workspace_id: string }>(
      runner,
      'SELECT workspace_id FROM workflow WHERE id = $1',
      [id],
    );
    return row?.workspace_id ?? null;
  }

  /** True when following `integration` links from `startId` reaches `selfId` (50 links at most). */
  async leadsBackTo(runner: SqlRunner, startId: string, selfId: string): Promise<boolean> {
    const row = await queryOne<{ found: boolean }>(
      runner,
      `WITH RECURSIVE chain(id, depth) AS (
         SELECT $1::uuid, 0
         UNION ALL
         SELECT w.integration_id, c.depth + 1 FROM workflow w JOIN chain c ON w.id = c.id
          WHERE w.integration_id IS NOT NULL AND c.depth < 50)
       SELECT EXISTS (SELECT 1 FROM chain WHERE id = $2::uuid) AS found`,
      [startId, selfId],
    );
    return row!.found;
  }

  /** How many workflows use these credentials. */
  async usingCredentials(runner: SqlRunner, credentialsId: string): Promise<number> {
    const row = await queryOne<{ n: number }>(
      runner,
      'SELECT count(*)::int AS n FROM workflow WHERE credentials_id = $1',
      [credentialsId],
    );
    return row!.n;
  }

  /** The enabled webhook workflows of a workspace. */
  webhookTargets(runner: SqlRunner, workspaceId: string): Promise<WebhookTarget[]> {
    return query<WebhookTarget>(
      runner,
      `SELECT id, period, url, entity, event, field FROM workflow
        WHERE workspace_id = $1 AND type = 'webhook' AND enabled`,
      [workspaceId],
    );
  }

  /** Of these workflows, those in the reference's form (`url` set), with their concurrency. */
  async referenceConcurrency(
    runner: SqlRunner,
    ids: readonly string[],
  ): Promise<Map<string, number>> {
    const rows = ids.length
      ? await query<{ id: string; concurrency: string }>(
          runner,
          'SELECT id, concurrency FROM workflow WHERE id = ANY($1::uuid[]) AND url IS NOT NULL',
          [ids],
        )
      : [];
    return new Map(rows.map((w) => [w.id, Math.max(1, Number(w.concurrency))]));
  }

  delivered(runner: SqlRunner, id: string): Promise<DeliveredWorkflow | undefined> {
    return queryOne<DeliveredWorkflow>(
      runner,
      `SELECT workspace_id, enabled, credentials_id, url, auth_type, username, password
         FROM workflow WHERE id = $1`,
      [id],
    );
  }

  async disable(runner: SqlRunner, id: string): Promise<void> {
    await query(runner, 'UPDATE workflow SET enabled = false WHERE id = $1', [id]);
  }

  async ranAt(runner: SqlRunner, id: string, at: Date): Promise<void> {
    await query(runner, 'UPDATE workflow SET last_run_date = $2 WHERE id = $1', [id, at]);
  }

  async failureNotice(runner: SqlRunner, id: string): Promise<WorkflowFailureNotice | null> {
    const row = await queryOne<{
      title: string | null;
      notification_emails: string[];
      workspace_id: string;
    }>(runner, 'SELECT title, notification_emails, workspace_id FROM workflow WHERE id = $1', [id]);
    return row
      ? {
          title: row.title,
          notificationEmails: row.notification_emails,
          workspaceId: row.workspace_id,
        }
      : null;
  }

  /**
   * The enabled workflows with an executor (not passive) of these workspaces, oldest first,
   * with their type.
   */
  executable(
    runner: SqlRunner,
    workspaceIds: readonly string[],
  ): Promise<Array<{ id: string; type: string }>> {
    if (workspaceIds.length === 0) return Promise.resolve([]);
    return query<{ id: string; type: string }>(
      runner,
      `SELECT id, type FROM workflow
        WHERE workspace_id = ANY($1::uuid[]) AND enabled AND NOT passive
        ORDER BY created_at, id`,
      [workspaceIds],
    );
  }

  /** What a store sync run needs of its workflow; undefined when it is gone. */
  storeRun(runner: SqlRunner, id: string): Promise<StoreRunWorkflow | undefined> {
    return queryOne<StoreRunWorkflow>(
      runner,
      `SELECT id, type, workspace_id, title, enabled, passive, period, credentials_id,
              first_time_setup_passed, notification_emails
         FROM workflow WHERE id = $1`,
      [id],
    );
  }

  async suggest(
    runner: SqlRunner,
    userId: string,
    comment: string,
  ): Promise<{ id: string; createdAt: Date }> {
    const row = await queryOne<{ id: string; created_at: Date }>(
      runner,
      'INSERT INTO workflow_suggestion (user_id, comment) VALUES ($1, $2) RETURNING id, created_at',
      [userId, comment],
    );
    return { id: row!.id, createdAt: new Date(row!.created_at) };
  }
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * SQL: the id (text) of the team `team`'s latest workflow of one of `types`, or NULL (the
 * Team's storefront billing workflow).
 */
export function latestTeamWorkflowSql(team: string, types: readonly string[]): string {
  return `(SELECT lk_wf.id::text FROM workflow lk_wf
   WHERE lk_wf.workspace_id IN ${teamWorkspacesSql(team)} AND lk_wf.type IN (${types.map(literal).join(', ')})
   ORDER BY lk_wf.created_at DESC, lk_wf.id LIMIT 1)`;
}
