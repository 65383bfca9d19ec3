/**
 * The contract between the retention sweep and the modules whose tables it keeps short: each
 * module declares, in its own store, a RetentionRule for each table it lets go of old rows
 * (its condition and its delete statement) and provides it under RETENTION_RULES in its own
 * `@Module`; the sweeper (retention-sweeper.ts) finds every provider and runs the statements.
 */

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

/** Every module's rules: `{ provide: RETENTION_RULES, useValue: rule }` (one rule, or a list). */
export const RETENTION_RULES = Symbol('retention:rules');

/**
 * One table the sweep deletes from, with its two statements (built by retentionStatements
 * from the owner's condition):
 * - `batchSql` (`$1` cut-off, `$2` batch size): deletes one batch and answers one row: `n`
 *   (rows of the table), `c0`, `c1`, ... (rows of each child table, in `children` order) and,
 *   when the deleted rows carry notes, `note_media` (ids of the media those notes used);
 * - `countSql` (`$1` cut-off): what every batch together would delete now, as the tables
 *   stand: `n`, `c0`, ..., and `files` (stored files the deleted rows name).
 */
export interface RetentionRule {
  table: string;
  category: RetentionCategory;
  /** Tables whose rows go with the table's (in the same statement), reported under their name. */
  children: readonly string[];
  batchSql: string;
  countSql: string;
}

/** The notes on rows a batch deletes: removed in the same statement (src/notes). */
export interface DeletedRowsNotes {
  /** CTEs deleting the notes on the rows of `gone` (`id`, `workspace_id`). */
  ctes(gone: string): string[];
  /** A select-list expression: the ids (text[]) of the media those notes used. */
  media: string;
}

/**
 * What a module declares of one of its tables. `where` is an SQL condition on the row `x`
 * of `table` with the cut-off as `$1`: true for rows that are finished and were finished
 * before the cut-off. Rows of `children` (tables referencing it) are deleted with their
 * parent, in the same statement. A `fileKey` column names a stored file the table's
 * file-GC trigger hands to the media file sweeper when the row goes. `notes`: the notes on
 * the deleted rows go in the same statement.
 */
export interface RetentionSpec {
  table: string;
  category: RetentionCategory;
  where: string;
  children?: ReadonlyArray<{ table: string; column: string }>;
  fileKey?: string;
  notes?: DeletedRowsNotes;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The rule's statements. A batch locks up to `$2` rows the rule holds, skipping rows another
 * transaction holds (another node, a writer), then deletes them with their children (and
 * notes) in one statement.
 */
export function retentionStatements(spec: RetentionSpec): RetentionRule {
  const t = ident(spec.table);
  const children = spec.children ?? [];
  const ctes = [
    `picked AS (SELECT x.id FROM ${t} x WHERE ${spec.where} LIMIT $2 FOR UPDATE OF x SKIP LOCKED)`,
    ...children.map(
      (c, i) =>
        `c${i} AS (DELETE FROM ${ident(c.table)} c USING picked p WHERE c.${ident(c.column)} = p.id RETURNING 1)`,
    ),
    spec.notes
      ? `gone AS (DELETE FROM ${t} t USING picked p WHERE t.id = p.id RETURNING t.id, t.workspace_id)`
      : `gone AS (DELETE FROM ${t} t USING picked p WHERE t.id = p.id RETURNING 1)`,
    ...(spec.notes?.ctes('gone') ?? []),
  ];
  const counts = [
    `(SELECT count(*) FROM gone)::int AS n`,
    ...children.map((_, i) => `(SELECT count(*) FROM c${i})::int AS c${i}`),
    ...(spec.notes ? [`${spec.notes.media} AS note_media`] : []),
  ];
  const matching = `SELECT x.id FROM ${t} x WHERE ${spec.where}`;
  const countSql = [
    `(SELECT count(*) FROM ${t} x WHERE ${spec.where})::int AS n`,
    ...children.map(
      (c, i) =>
        `(SELECT count(*) FROM ${ident(c.table)} c WHERE c.${ident(c.column)} IN (${matching}))::int AS c${i}`,
    ),
    spec.fileKey
      ? `(SELECT count(*) FROM ${t} x WHERE ${spec.where} AND x.${ident(spec.fileKey)} IS NOT NULL)::int AS files`
      : `0 AS files`,
  ];
  return {
    table: spec.table,
    category: spec.category,
    children: children.map((c) => c.table),
    batchSql: `WITH ${ctes.join(',\n')}\nSELECT ${counts.join(', ')}`,
    countSql: `SELECT ${countSql.join(', ')}`,
  };
}
