import { TOKEN_RETENTION } from '../auth/token-retention-store';
import { BATCH_JOB_RETENTION } from '../batches/batch-job-retention-store';
import { loadConfig } from '../config/load-config';
import { OUTBOX_RETENTION } from '../events/outbox-store';
import { EXPORT_RETENTION } from '../exports/export-store';
import { NOTIFICATION_RETENTION } from '../notifications/notification-retention-store';
import { USER_TOKEN_RETENTION } from '../security/user-token-retention-store';
import { WIDGET_LOG_RETENTION } from '../widgets/widget-log-retention-store';
import { WORKFLOW_RUN_RETENTION } from '../workflows/workflow-run-store';
import { retentionStatements } from './retention-rule';
import {
  RETENTION_CATEGORIES,
  cutoffOf,
  orderedRules,
  plannedRules,
  retentionPolicy,
  retentionTables,
  sweepSummary,
  type RetentionPolicy,
} from './retention-rules';

/** Every module's rules, as the application provides them (in module order, not sweep order). */
const PROVIDED_RULES = [
  TOKEN_RETENTION,
  OUTBOX_RETENTION,
  NOTIFICATION_RETENTION,
  USER_TOKEN_RETENTION,
  WORKFLOW_RUN_RETENTION,
  WIDGET_LOG_RETENTION,
  EXPORT_RETENTION,
  BATCH_JOB_RETENTION,
];
const RULES = orderedRules(PROVIDED_RULES);

const NOW = new Date('2025-03-30T12:00:00.000Z');
const DEFAULTS: RetentionPolicy = {
  events: 30,
  workflowRuns: 30,
  exports: 7,
  widgetLogs: 30,
  notifications: 90,
  tokens: 30,
};

describe('retention rules', () => {
  describe('cutoffOf', () => {
    it('is `days` times 24 h before now', () => {
      expect(cutoffOf(NOW, 30)).toEqual(new Date('2025-02-28T12:00:00.000Z'));
      expect(cutoffOf(NOW, 1)).toEqual(new Date('2025-03-29T12:00:00.000Z'));
    });

    it('is null for 0 days: kept forever', () => {
      expect(cutoffOf(NOW, 0)).toBeNull();
    });

    it.each([-1, 1.5, NaN])('refuses %p days', (days) => {
      expect(() => cutoffOf(NOW, days)).toThrow(RangeError);
    });
  });

  describe('retentionPolicy', () => {
    it('has the documented defaults', () => {
      expect(retentionPolicy(loadConfig({}))).toEqual(DEFAULTS);
    });

    it('reads every RETENTION_DAYS_* variable', () => {
      const config = loadConfig({
        RETENTION_DAYS_EVENTS: '1',
        RETENTION_DAYS_WORKFLOW_RUNS: '2',
        RETENTION_DAYS_EXPORTS: '3',
        RETENTION_DAYS_WIDGET_LOGS: '4',
        RETENTION_DAYS_NOTIFICATIONS: '5',
        RETENTION_DAYS_TOKENS: '0',
      });
      expect(retentionPolicy(config)).toEqual({
        events: 1,
        workflowRuns: 2,
        exports: 3,
        widgetLogs: 4,
        notifications: 5,
        tokens: 0,
      });
    });

    it('refuses negative days and a zero interval', () => {
      expect(() => loadConfig({ RETENTION_DAYS_EVENTS: '-1' })).toThrow(
        'RETENTION_DAYS_EVENTS="-1" must be an integer from 0 to 36500',
      );
      expect(() => loadConfig({ RETENTION_INTERVAL_SECONDS: '0' })).toThrow(
        'RETENTION_INTERVAL_SECONDS="0" must be an integer from 1 to 604800',
      );
    });
  });

  describe('plannedRules', () => {
    it('gives every rule the cut-off of its category, in category then table order', () => {
      const planned = plannedRules(NOW, DEFAULTS, RULES);
      expect(planned.map((p) => [p.rule.table, p.cutoff.toISOString()])).toEqual([
        ['outbox_event', '2025-02-28T12:00:00.000Z'],
        ['workflow_run', '2025-02-28T12:00:00.000Z'],
        ['batch_job', '2025-03-23T12:00:00.000Z'],
        ['export', '2025-03-23T12:00:00.000Z'],
        ['widget_log', '2025-02-28T12:00:00.000Z'],
        ['notification', '2024-12-30T12:00:00.000Z'],
        ['access_token', '2025-02-28T12:00:00.000Z'],
        ['oauth_authorization_code', '2025-02-28T12:00:00.000Z'],
        ['oauth_refresh_token', '2025-02-28T12:00:00.000Z'],
        ['user_token', '2025-02-28T12:00:00.000Z'],
      ]);
    });

    it('leaves out categories kept forever', () => {
      const tables = plannedRules(NOW, { ...DEFAULTS, exports: 0, tokens: 0 }, RULES).map(
        (p) => p.rule.table,
      );
      expect(tables).toEqual(['outbox_event', 'workflow_run', 'widget_log', 'notification']);
    });

    it('covers every category', () => {
      expect(new Set(RULES.map((r) => r.category))).toEqual(new Set(RETENTION_CATEGORIES));
    });
  });

  it('keeps authorization codes on the cut-off of the refresh tokens their rule checks', () => {
    // The code rule asks whether a refresh token of the family survives `$1`: both must be
    // swept with the same cut-off, or a code could go while its family is still alive.
    const rule = (table: string) => RULES.find((r) => r.table === table)!;
    expect(rule('oauth_authorization_code').batchSql).toMatch(/oauth_refresh_token r/);
    expect(rule('oauth_authorization_code').category).toBe(rule('oauth_refresh_token').category);
  });

  it('reports every table, children after their parent', () => {
    expect(retentionTables(RULES)).toEqual([
      'outbox_event',
      'event_delivery',
      'workflow_run',
      'batch_job',
      'export',
      'widget_log',
      'notification',
      'access_token',
      'oauth_authorization_code',
      'oauth_refresh_token',
      'user_token',
    ]);
  });

  describe('SQL', () => {
    const outbox = RULES.find((r) => r.table === 'outbox_event')!;
    const exports = RULES.find((r) => r.table === 'export')!;

    it('deletes a batch of locked rows (skipping locked ones) with their children in one statement', () => {
      const sql = outbox.batchSql;
      expect(sql).toContain('LIMIT $2 FOR UPDATE OF x SKIP LOCKED');
      expect(sql).toMatch(
        /c0 AS \(DELETE FROM "event_delivery" c USING picked p WHERE c\."outbox_event_id" = p\.id/,
      );
      expect(sql).toMatch(/gone AS \(DELETE FROM "outbox_event" t USING picked p/);
      expect(sql).toMatch(/SELECT \(SELECT count\(\*\) FROM gone\)::int AS n, .* AS c0$/);
    });

    it('counts files only for rules with a stored file', () => {
      expect(exports.countSql).toMatch(/x\."storage_key" IS NOT NULL\)::int AS files$/);
      expect(outbox.countSql).toMatch(/0 AS files$/);
      expect(outbox.countSql).toMatch(/FROM "event_delivery" c WHERE c\."outbox_event_id" IN/);
    });

    it('uses only the cut-off in rule conditions ($2 is the batch size)', () => {
      for (const rule of RULES) {
        expect(rule.countSql).toContain('$1');
        expect(rule.countSql).not.toMatch(/\$[02-9]/);
        expect(rule.batchSql).toContain('LIMIT $2');
        expect(rule.batchSql).not.toMatch(/\$[03-9]/);
      }
    });

    it('deletes the notes on the deleted rows in the same statement, and answers their media', () => {
      const runs = RULES.find((r) => r.table === 'workflow_run')!;
      expect(runs.batchSql).toMatch(
        /gone AS \(DELETE FROM "workflow_run" t .* RETURNING t\.id, t\.workspace_id\)/,
      );
      expect(runs.batchSql).toMatch(/gone_notes AS \(DELETE FROM note n USING gone g/);
      expect(runs.batchSql).toMatch(/n\.entity = 'workflow_runs'/);
      expect(runs.batchSql).toMatch(/ AS note_media$/);
      expect(exports.batchSql).not.toContain('note');
    });

    it("names a rule's children in its report", () => {
      const rule = retentionStatements({
        table: 'parent',
        category: 'events',
        where: 'x.done_at < $1',
        children: [
          { table: 'child_a', column: 'parent_id' },
          { table: 'child_b', column: 'parent_id' },
        ],
      });
      expect(rule.children).toEqual(['child_a', 'child_b']);
      expect(rule.batchSql).toMatch(/AS c0, .* AS c1$/);
    });
  });

  describe('sweepSummary', () => {
    it('is null when nothing was deleted', () => {
      expect(sweepSummary({ outbox_event: 0, export: 0 }, 0)).toBeNull();
    });

    it('names the tables that lost rows, and the files', () => {
      expect(sweepSummary({ outbox_event: 12, event_delivery: 30, export: 0 }, 2)).toBe(
        'retention: deleted outbox_event 12, event_delivery 30, files 2',
      );
      expect(sweepSummary({ widget_log: 0 }, 1)).toBe('retention: deleted files 1');
    });
  });
});
