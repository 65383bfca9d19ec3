import type { AppConfig } from '../config/app-config';

/** Groups of tables sharing one RETENTION_DAYS_* setting. */
export const RETENTION_CATEGORIES = [
  'events',
  'workflowRuns',
  'exports',
  'widgetLogs',
  'notifications',
  'tokens',
] as const;
export type RetentionCategory = (typeof RETENTION_CATEGORIES)[number];

/** Days each category is kept; 0 keeps it forever. */
export type RetentionPolicy = Record<RetentionCategory, number>;

const DAY_MS = 24 * 3600 * 1000;

/**
 * One table the sweep deletes from. `where` is an SQL condition on the row `x` of `table`
 * with the cut-off as `$1`: true for rows that are finished and were finished before the
 * cut-off. Rows of `children` (tables referencing it) are deleted with their parent, in the
 * same statement, and counted under their own table. A `fileKey` column names a stored file
 * the export_queue_file_gc trigger hands to the media file sweeper when the row goes.
 */
export interface RetentionRule {
  table: string;
  category: RetentionCategory;
  where: string;
  children?: ReadonlyArray<{ table: string; column: string }>;
  fileKey?: string;
  /**
   * The collection notes name these rows by (`widget_logs`): notes on a deleted row go in the
   * same statement (their reminders and attachment rows by FK cascade), and the batch answers
   * `note_media`, the media those notes used, for removeUnusedMedia.
   */
  notes?: string;
}

/** The statuses an event delivery never leaves (see src/events/event-delivery.ts). */
export const FINAL_DELIVERY_STATUSES = ['delivered', 'skipped', 'failed'] as const;

/**
 * What is deleted, and when. Each rule stands on its own (any order is correct):
 *
 * - outbox_event: `delivered_at` is set once none of its deliveries is pending, held or
 *   sending (failed-for-good ones included); the NOT EXISTS re-checks that, so an event with
 *   a delivery still to attempt is never deleted. Its event_delivery rows go with it.
 * - workflow_run: by creation; a run still `running` that old was left by a node that died.
 * - export, batch_job: done or failed, counted from `finished_at`; queued and running stay.
 * - notification: read ones, counted from `read_at`; unread ones stay.
 * - access_token, user_token: counted from expiry (a lookup refuses them long before).
 * - oauth_refresh_token: counted from expiry. A rotated (used) token is the tripwire of reuse
 *   detection (presenting it revokes its family), so it is kept for the same grace after its
 *   own expiry; later its copy is refused as unknown instead.
 * - oauth_authorization_code: counted from expiry, and only once no refresh token of its
 *   family survives this sweep: the code row carries the family's `revoked_at` mark that
 *   OAuthModel.saveToken checks before the family may grow.
 */
export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    table: 'outbox_event',
    category: 'events',
    where: `x.delivered_at < $1 AND NOT EXISTS (
              SELECT 1 FROM event_delivery d
               WHERE d.outbox_event_id = x.id
                 AND d.status NOT IN (${FINAL_DELIVERY_STATUSES.map((s) => `'${s}'`).join(', ')}))`,
    children: [{ table: 'event_delivery', column: 'outbox_event_id' }],
  },
  {
    table: 'workflow_run',
    category: 'workflowRuns',
    where: `x.created_at < $1`,
    notes: 'workflow_runs',
  },
  {
    table: 'export',
    category: 'exports',
    where: `x.status IN ('done', 'failed') AND x.finished_at < $1`,
    fileKey: 'storage_key',
  },
  {
    table: 'batch_job',
    category: 'exports',
    where: `x.status IN ('done', 'failed') AND x.finished_at < $1`,
  },
  { table: 'widget_log', category: 'widgetLogs', where: `x.created_at < $1`, notes: 'widget_logs' },
  { table: 'notification', category: 'notifications', where: `NOT x.unread AND x.read_at < $1` },
  { table: 'access_token', category: 'tokens', where: `x.expires_at < $1` },
  { table: 'oauth_refresh_token', category: 'tokens', where: `x.expires_at < $1` },
  {
    table: 'oauth_authorization_code',
    category: 'tokens',
    where: `x.expires_at < $1 AND NOT EXISTS (
              SELECT 1 FROM oauth_refresh_token r
               WHERE r.family_id = x.family_id AND r.expires_at >= $1)`,
  },
  { table: 'user_token', category: 'tokens', where: `x.expires_at < $1` },
];

/** Every table a sweep reports on, parents and children, in rule order. */
export function retentionTables(rules: readonly RetentionRule[] = RETENTION_RULES): string[] {
  return rules.flatMap((r) => [r.table, ...(r.children ?? []).map((c) => c.table)]);
}

export function retentionPolicy(config: AppConfig): RetentionPolicy {
  return {
    events: config.retentionDaysEvents,
    workflowRuns: config.retentionDaysWorkflowRuns,
    exports: config.retentionDaysExports,
    widgetLogs: config.retentionDaysWidgetLogs,
    notifications: config.retentionDaysNotifications,
    tokens: config.retentionDaysTokens,
  };
}

/** Rows finished before this instant are deleted; null when the category is kept forever. */
export function cutoffOf(now: Date, days: number): Date | null {
  if (!Number.isInteger(days) || days < 0) throw new RangeError(`invalid retention: ${days} days`);
  return days === 0 ? null : new Date(now.getTime() - days * DAY_MS);
}

export function cutoffsOf(
  now: Date,
  policy: RetentionPolicy,
): Record<RetentionCategory, Date | null> {
  return Object.fromEntries(
    RETENTION_CATEGORIES.map((c) => [c, cutoffOf(now, policy[c])]),
  ) as Record<RetentionCategory, Date | null>;
}

/** The rules to apply now, each with its cut-off (categories kept forever are left out). */
export function plannedRules(
  now: Date,
  policy: RetentionPolicy,
  rules: readonly RetentionRule[] = RETENTION_RULES,
): Array<{ rule: RetentionRule; cutoff: Date }> {
  const cutoffs = cutoffsOf(now, policy);
  return rules.flatMap((rule) => {
    const cutoff = cutoffs[rule.category];
    return cutoff ? [{ rule, cutoff }] : [];
  });
}

/**
 * The log line of a sweep, e.g. `retention: deleted outbox_event 120, event_delivery 240,
 * files 3`; null when nothing was deleted (nothing is logged then).
 */
export function sweepSummary(counts: Record<string, number>, files: number): string | null {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([table, n]) => `${table} ${n}`);
  if (files > 0) parts.push(`files ${files}`);
  return parts.length ? `retention: deleted ${parts.join(', ')}` : null;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * One batch of a rule as one statement (`$1` cut-off, `$2` batch size): up to `$2` rows the
 * rule holds are locked, skipping rows another transaction holds (another node, a writer),
 * then deleted with their children and, for a rule with `notes`, the notes on them. Answers
 * one row: `n` (rows of the table), `c0`, `c1`, ... (rows of each child table) and, with
 * `notes`, `note_media` (ids of the media the deleted notes used; the statement's snapshot
 * still shows their attachment rows).
 */
export function deleteBatchSql(rule: RetentionRule): string {
  const t = ident(rule.table);
  const children = rule.children ?? [];
  const ctes = [
    `picked AS (SELECT x.id FROM ${t} x WHERE ${rule.where} LIMIT $2 FOR UPDATE OF x SKIP LOCKED)`,
    ...children.map(
      (c, i) =>
        `c${i} AS (DELETE FROM ${ident(c.table)} c USING picked p WHERE c.${ident(c.column)} = p.id RETURNING 1)`,
    ),
    rule.notes
      ? `gone AS (DELETE FROM ${t} t USING picked p WHERE t.id = p.id RETURNING t.id, t.workspace_id)`
      : `gone AS (DELETE FROM ${t} t USING picked p WHERE t.id = p.id RETURNING 1)`,
  ];
  const counts = [
    `(SELECT count(*) FROM gone)::int AS n`,
    ...children.map((_, i) => `(SELECT count(*) FROM c${i})::int AS c${i}`),
  ];
  if (rule.notes) {
    ctes.push(
      `gone_notes AS (DELETE FROM note n USING gone g
        WHERE n.workspace_id = g.workspace_id AND n.entity = ${literal(rule.notes)} AND n.entity_id = g.id
        RETURNING n.id, n.attachment_id)`,
    );
    counts.push(
      `ARRAY(SELECT na.media_id::text FROM note_attachment na JOIN gone_notes d ON d.id = na.note_id
              UNION SELECT d.attachment_id::text FROM gone_notes d WHERE d.attachment_id IS NOT NULL) AS note_media`,
    );
  }
  return `WITH ${ctes.join(',\n')}\nSELECT ${counts.join(', ')}`;
}

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * What a sweep would delete for a rule, as the tables stand (`$1` cut-off): `n`, `c0`, ...
 * as in deleteBatchSql, and `files` (stored files the deleted rows name).
 */
export function countSql(rule: RetentionRule): string {
  const t = ident(rule.table);
  const matching = `SELECT x.id FROM ${t} x WHERE ${rule.where}`;
  const counts = [
    `(SELECT count(*) FROM ${t} x WHERE ${rule.where})::int AS n`,
    ...(rule.children ?? []).map(
      (c, i) =>
        `(SELECT count(*) FROM ${ident(c.table)} c WHERE c.${ident(c.column)} IN (${matching}))::int AS c${i}`,
    ),
    rule.fileKey
      ? `(SELECT count(*) FROM ${t} x WHERE ${rule.where} AND x.${ident(rule.fileKey)} IS NOT NULL)::int AS files`
      : `0 AS files`,
  ];
  return `SELECT ${counts.join(', ')}`;
}
