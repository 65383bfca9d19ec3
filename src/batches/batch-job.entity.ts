import { Column, CreateDateColumn, Entity, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DateFilter, ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Status } from '../statuses/status.entity';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/workspace.entity';
import { ChangeStatusBatchResult } from './batch.output';

export const BATCH_JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type BatchJobState = (typeof BATCH_JOB_STATES)[number];

/**
 * A batch run in the background (POST /change_status_batch_async): what was asked, where
 * it stands (queued, running, done, failed) and what it did. Only the user who asked sees it.
 */
@ApiResource({
  path: '/batch_jobs',
  operations: ['list', 'get'],
  tenancy: { user: 'user' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A background batch of the current user and its outcome.',
})
@ApiFilter(
  new ExactFilter(['status', 'entity', 'operation']),
  new DateFilter(['createdAt']),
  new OrderFilter(['createdAt']),
)
@Entity('batch_job')
export class BatchJob {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ description: 'change_status' })
  @Column('text')
  operation: string;

  @ApiProperty({ description: 'shipments or orders' })
  @Column('text')
  entity: string;

  @ApiProperty({ description: 'queued, running, done or failed' })
  @Column('text', { default: 'queued' })
  status: BatchJobState;

  /** The status assigned when it was given by id or IRI. */
  @ApiProperty({ nullable: true })
  @ManyToOne(() => Status, { onDelete: 'SET NULL', nullable: true })
  targetStatus: Status | null;

  /** The status assigned when it was given by code (resolved in each record's workspace). */
  @ApiProperty()
  @Column('text', { nullable: true })
  statusCode: string | null;

  /** The workspace the batch was limited to, when one was given. */
  @ApiProperty({ nullable: true })
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: true })
  workspace: Workspace | null;

  @ApiProperty({ type: 'array', items: 'string', csv: false })
  @Column('uuid', { array: true })
  recordIds: string[];

  @ApiProperty()
  @Column('int')
  totalCount: number;

  @ApiProperty()
  @Column('int', { default: 0 })
  changedCount: number;

  /** When done: `{count, ids, unchangedIds, statuses}` as the synchronous form answers. */
  @ApiProperty({ type: 'object', of: () => ChangeStatusBatchResult, nullable: true, csv: false })
  @Column('jsonb', { nullable: true })
  result: Record<string, unknown> | null;

  /** Why it failed, when it did. */
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
