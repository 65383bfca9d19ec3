import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/workspace.entity';
import type { ImportEntity } from './import-fields';

export const IMPORT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** One refused row: its file line, and why (the violations of the POST it would have been). */
export interface ImportRowError {
  line: number | null;
  message: string;
}

/**
 * A CSV import of shipments or orders into a workspace (POST /imports). A background job
 * writes each row through the resource's own rules (validation, carrier detection, order
 * links); progress, counts and per-row errors are read at GET /imports/{id}. The file's text
 * is kept in the row (not exposed) until the import finishes, so any node's worker can read it.
 */
@ApiResource({
  path: '/imports',
  shortName: 'Import',
  operations: ['list', 'get'],
  tenancy: { workspace: 'workspace' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'An import of shipments or orders from a CSV file.',
})
@Entity('import')
export class Import {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ description: 'Who started the import.' })
  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  user: User | null;

  @ApiProperty()
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  @ApiProperty({ example: 'pending', description: 'pending, processing, completed or failed' })
  @Column('text', { default: 'pending' })
  status: ImportStatus;

  @ApiProperty({ example: 'shipments', description: 'What the rows create: shipments or orders' })
  @Column('text')
  entity: ImportEntity;

  @ApiProperty()
  @Column('text', { nullable: true })
  fileOriginalName: string | null;

  @ApiProperty()
  @Column('text')
  fileMimeType: string;

  @ApiProperty()
  @Column('int')
  fileSize: number;

  @ApiProperty({ type: 'object', description: 'CSV column -> field it fills' })
  @Column('jsonb')
  mapping: Record<string, string>;

  @ApiProperty()
  @Column('int')
  totalRows: number;

  @ApiProperty()
  @Column('int', { default: 0 })
  processedRows: number;

  @ApiProperty()
  @Column('int', { default: 0 })
  createdCount: number;

  @ApiProperty()
  @Column('int', { default: 0 })
  failedCount: number;

  @ApiProperty({
    sql: `(CASE WHEN {a}.total_rows = 0 THEN 100 ELSE {a}.processed_rows * 100 / {a}.total_rows END)`,
    type: 'integer',
    nullable: false,
    description: 'Percentage of the rows processed',
  })
  progress?: number;

  @ApiProperty({
    type: 'array',
    items: 'object',
    csv: false,
    description: 'The first 1000 refused rows: {line, message}',
  })
  @Column('jsonb', { default: () => "'[]'" })
  errors: ImportRowError[];

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  startedAt: Date | null;

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  finishedAt: Date | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
