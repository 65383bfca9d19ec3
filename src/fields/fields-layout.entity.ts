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
import { CUSTOM_FIELD_ENTITIES } from './custom-field-values';

export const LAYOUT_CODE_PATTERN = /^[a-zA-Z][\w.-]*$/;

/**
 * An ordered list of field codes (built-in or custom) of one entity, for forms and tables.
 * A layout whose code is the entity's name (`orders`, `shipments`) is that entity's default
 * layout, reported by `/entity_types`. Items are addressed by code (FieldsLayoutsController).
 */
@ApiResource({
  path: '/fields_layouts',
  shortName: 'FieldsLayout',
  identifier: 'code',
  tenancy: { workspace: 'workspace' },
  uniqueConstraints: {
    uq_fields_layout_workspace_code: {
      property: 'code',
      message: 'This code is already used by another layout of this workspace.',
    },
  },
  defaultOrder: { createdAt: 'ASC' },
  description: 'An ordered list of fields of orders or shipments.',
})
@ApiFilter(new ExactFilter(['workspace.id', 'entity']))
@Entity('fields_layout')
export class FieldsLayout {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @MaxLength(255, { on: ['post'] })
  @Regex(LAYOUT_CODE_PATTERN, { on: ['post'] })
  @Column('text')
  code: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @NotBlank()
  @MaxLength(255)
  @Column('text')
  title: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Workspace, { nullable: false, onDelete: 'CASCADE' })
  workspace: Workspace | null;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @Choice(CUSTOM_FIELD_ENTITIES, { on: ['post'] })
  @Column('text')
  entity: string;

  @ApiProperty({ writable: ['post', 'put'], type: 'array', items: 'string' })
  @Column('jsonb', { default: () => "'[]'::jsonb" })
  fields: string[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
