import type { AppConfig } from '../config/app-config';
import { RETENTION_CATEGORIES, type RetentionCategory, type RetentionRule } from './retention-rule';

export { RETENTION_CATEGORIES, type RetentionCategory } from './retention-rule';

/** Days each category is kept; 0 keeps it forever. */
export type RetentionPolicy = Record<RetentionCategory, number>;

const DAY_MS = 24 * 3600 * 1000;

/**
 * The rules every module declared (RETENTION_RULES), in the order a sweep takes them: by
 * category (RETENTION_CATEGORIES), then by table. Each rule stands on its own: any order is
 * correct; this one keeps sweeps and their reports alike from run to run.
 */
export function orderedRules(
  provided: ReadonlyArray<RetentionRule | readonly RetentionRule[]>,
): RetentionRule[] {
  const rank = (r: RetentionRule) => RETENTION_CATEGORIES.indexOf(r.category);
  return provided.flat().sort((a, b) => rank(a) - rank(b) || a.table.localeCompare(b.table));
}

/** Every table a sweep reports on, parents and children, in rule order. */
export function retentionTables(rules: readonly RetentionRule[]): string[] {
  return rules.flatMap((r) => [r.table, ...r.children]);
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
  rules: readonly RetentionRule[],
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
