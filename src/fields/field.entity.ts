import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ExactFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Choice, MaxLength, NotBlank, Regex } from '../hydra/validation/constraints';
import { Workspace } from '../workspaces/workspace.entity';
import { FieldListParameters } from './field-list-parameters';
import { CUSTOM_FIELD_ENTITIES, FIELD_TYPES, type SelectOptions } from './custom-field-values';
import { SelectOptionsOutput } from './field.output';

export const FIELD_CODE_PATTERN = /^[a-zA-Z][a-zA-Z_\d]*$/;

/**
 * A custom field of the orders or shipments of a workspace; its values live in their
 * `customFields`. Items are addressed by code (`/fields/{code}`), so the routes are written by
 * FieldsController; `GET /fields` also lists the built-in ("primary") fields, generated from
 * the Order and Shipment declarations.
 */
@ApiResource({
  path: '/fields',
  shortName: 'Field',
  identifier: 'code',
  tenancy: { workspace: 'workspace' },
  uniqueConstraints: {
    uq_field_workspace_entity_code: {
      property: 'code',
      message: 'This code is already used by another field of this entity.',
    },
  },
  defaultOrder: { createdAt: 'ASC' },
  description: 'A custom field of orders or shipments.',
})
@ApiFilter(new FieldListParameters(), new ExactFilter(['workspace.id']))
@Entity('field')
export class Field {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @MaxLength(255, { on: ['post'] })
  @Regex(FIELD_CODE_PATTERN, { on: ['post'] })
  @Column('text')
  code: string;

  /** Null on the built-in fields `GET /fields` lists beside the workspace's own. */
  @ApiProperty({ writable: ['post'], nullable: true })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Workspace, { nullable: false, onDelete: 'CASCADE' })
  workspace: Workspace | null;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @Choice(CUSTOM_FIELD_ENTITIES, { on: ['post'] })
  @Column('text')
  entity: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @NotBlank()
  @MaxLength(255)
  @Column('text')
  title: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @NotBlank()
  @Choice(FIELD_TYPES)
  @Column('text')
  fieldType: string;

  @ApiProperty({ writable: ['post', 'put'], nullable: true })
  @Column('boolean', { nullable: true })
  readonly: boolean | null;

  @ApiProperty({ writable: ['post', 'put'], nullable: true })
  @Column('boolean', { nullable: true })
  sorting: boolean | null;

  @ApiProperty({
    writable: ['post', 'put'],
    type: 'object',
    of: () => SelectOptionsOutput,
    nullable: true,
  })
  @Column('jsonb', { nullable: true })
  selectOptions: SelectOptions | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(1000)
  @Column('text', { nullable: true })
  visibleExpr: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(1000)
  @Column('text', { nullable: true })
  validation: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(1000)
  @Column('text', { name: 'default_value', nullable: true })
  default: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  placeholder: string | null;

  @ApiProperty({ writable: ['post', 'put'], nullable: true })
  @Column('boolean', { nullable: true })
  refreshOnChange: boolean | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(1000)
  @Column('text', { nullable: true })
  helperText: string | null;

  @ApiProperty({ writable: ['post', 'put'], type: 'array', items: 'string' })
  @Column('jsonb', { default: () => "'[]'::jsonb" })
  tags: string[];

  @ApiProperty({ writable: ['post', 'put'], type: 'array', items: 'string' })
  @Column('jsonb', { default: () => "'[]'::jsonb" })
  options: string[];

  /** Always false here; built-in fields (true) are generated, not stored. */
  @ApiProperty({ sql: 'false', type: 'boolean', nullable: false })
  primary?: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
