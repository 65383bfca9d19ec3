import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Workspace } from '../workspaces/workspace.entity';
import { WorkflowRunCounts } from './workflow-run-counts';
import { Workflow } from './workflow.entity';

/** `running` while an attempt is under way, then `success` or `failed`. */
export const WORKFLOW_RUN_STATUSES = ['running', 'success', 'failed'] as const;
export type WorkflowRunStatus = (typeof WORKFLOW_RUN_STATUSES)[number];

/**
 * One run of a workflow: for webhooks, one delivery attempt of one event (its id, the attempt
 * number, the HTTP status answered, how long it took, a log of the request and the answer),
 * written by the event delivery worker; for store workflows, one import (src/store-sync) with
 * its `counts` and its `errors`, one line per store record. Read-only through the API.
 */
@ApiResource({
  path: '/workflow_runs',
  operations: ['list', 'get'],
  nested: [
    { path: '/workflows/:id/runs', params: { id: 'workflow' } },
    {
      path: '/workspaces/:id/workflows/:workflows/runs',
      params: { id: 'workspace', workflows: 'workflow' },
    },
    {
      path: '/teams/:id/workspaces/:workspaces/workflows/:workflows/runs',
      params: { id: 'workspace.team', workspaces: 'workspace', workflows: 'workflow' },
    },
  ],
  tenancy: { workspace: 'workspace' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A run (delivery attempt) of a workflow.',
})
@ApiFilter(new ExactFilter(['status']), new OrderFilter(['createdAt']))
@Entity('workflow_run')
export class WorkflowRun {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty()
  @ManyToOne(() => Workflow, { onDelete: 'CASCADE', nullable: false })
  workflow: Workflow;

  @ApiProperty()
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  @ApiProperty({ example: 'success', description: 'running, success or failed' })
  @Column('text')
  status: string;

  @ApiProperty({
    nullable: true,
    description: 'Id of the event delivered (stable across attempts)',
  })
  @Column('uuid', { nullable: true })
  eventId: string | null;

  @ApiProperty({ nullable: true, example: 'shipment.status_changed' })
  @Column('text', { nullable: true })
  eventType: string | null;

  @ApiProperty({ nullable: true, description: 'Attempt number of this delivery (1 = first)' })
  @Column('int', { nullable: true })
  attempt: number | null;

  @ApiProperty({ nullable: true, description: 'HTTP status the target answered' })
  @Column('int', { nullable: true })
  responseCode: number | null;

  @ApiProperty({ nullable: true, description: 'Milliseconds' })
  @Column('int', { nullable: true })
  duration: number | null;

  @ApiProperty({ nullable: true })
  @Column('text', { nullable: true })
  log: string | null;

  @ApiProperty({
    nullable: true,
    description: 'Why it failed; for store sync runs one line per store record: `[id] reason`.',
  })
  @Column('text', { nullable: true })
  errors: string | null;

  @ApiProperty({
    type: 'object',
    of: () => WorkflowRunCounts,
    nullable: true,
    csv: false,
    description: 'What a store sync run did (null for webhook deliveries).',
  })
  @Column('jsonb', { nullable: true })
  counts: WorkflowRunCounts | null;

  @ApiProperty()
  @Column('timestamptz')
  startedAt: Date;

  @ApiProperty({ nullable: true })
  @Column('timestamptz', { nullable: true })
  finishedAt: Date | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
