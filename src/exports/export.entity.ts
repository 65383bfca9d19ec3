import { Column, CreateDateColumn, Entity, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DateFilter, ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/workspace.entity';

export const EXPORT_ENTITIES = ['shipments', 'orders'] as const;
export const EXPORT_FORMATS = ['csv'] as const;
export type ExportState = 'queued' | 'running' | 'done' | 'failed';

/**
 * A CSV export of shipments or orders (POST /export), built in the background with the
 * collection's filters. `link` (the reference's name) is where the file downloads once it
 * is done. Only the user who asked sees it.
 */
@ApiResource({
  path: '/exports',
  operations: ['list', 'get'],
  tenancy: { user: 'user' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A CSV export of the current user and its file.',
})
@ApiFilter(
  new ExactFilter(['status', 'entity']),
  new DateFilter(['createdAt']),
  new OrderFilter(['createdAt']),
)
@Entity('export')
export class Export {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ description: 'shipments or orders' })
  @Column('text')
  entity: string;

  /** The workspace exported, or null for all of the user's workspaces. */
  @ApiProperty({ nullable: true })
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: true })
  workspace: Workspace | null;

  @ApiProperty()
  @Column('text', { default: 'csv' })
  format: string;

  /** The collection's query parameters, in order, as `[name, value]` pairs (`{}`: none). */
  @Column('jsonb', { name: 'filters', default: () => "'{}'::jsonb" })
  filterPairs: Array<[string, string]>;

  /** The collection filters applied, as given: `{"trackingStatus[]": ["delivered"], ...}`. */
  @ApiProperty({
    type: 'object',
    csv: false,
    sql: `(SELECT COALESCE(jsonb_object_agg(k, v), '{}'::jsonb) FROM (
             SELECT p->>0 AS k,
                    CASE WHEN count(*) > 1 OR p->>0 LIKE '%[]' THEN jsonb_agg(p->1) ELSE (array_agg(p->1))[1] END AS v
               FROM jsonb_array_elements(CASE WHEN jsonb_typeof({a}.filters) = 'array' THEN {a}.filters ELSE '[]'::jsonb END) p GROUP BY p->>0) f)`,
  })
  filters?: Record<string, string | string[]>;

  @ApiProperty({ description: 'queued, running, done or failed' })
  @Column('text', { default: 'queued' })
  status: ExportState;

  /** Rows written, once done. */
  @ApiProperty()
  @Column('int', { nullable: true })
  rowCount: number | null;

  /** File size in bytes, once done. */
  @ApiProperty({ type: 'integer' })
  @Column('bigint', { nullable: true })
  size: string | null;

  @ApiProperty()
  @Column('text', { nullable: true })
  fileName: string | null;

  @Column('text', { nullable: true })
  storageKey: string | null;

  /** Where the file downloads (with the bearer token), once done. */
  @ApiProperty({
    sql: `CASE WHEN {a}.status = 'done' THEN '/exports/' || {a}.id || '/download' END`,
  })
  link?: string | null;

  /** What the export is doing, in words (the reference's response carries a message). */
  @ApiProperty({
    sql: `CASE {a}.status
            WHEN 'queued' THEN 'The export is queued; you will be notified when it is ready.'
            WHEN 'running' THEN 'The export is being prepared; you will be notified when it is ready.'
            WHEN 'done' THEN 'The export is ready to download.'
            ELSE 'The export failed.' END`,
  })
  message?: string;

  @ApiProperty()
  @Column('text', { nullable: true })
  error: string | null;

  @Column('int', { default: 0 })
  attempts: number;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  startedAt: Date | null;

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  finishedAt: Date | null;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt: Date;

  @ApiProperty()
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  user: User;
}
