import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ApiProperty, ApiResource, workspaceRoutes } from '../hydra/metadata/decorators';
import {
  Choice,
  EachChoice,
  MaxLength,
  MinLength,
  NotBlank,
} from '../hydra/validation/constraints';
import { Workspace } from '../workspaces/workspace.entity';

/**
 * What an embedded widget lets a store's visitors do (POST /public/widgets/{id}/lookup):
 * `tracking_form` finds a shipment by tracking number, `order_lookup` the shipments of an
 * order by order number and the order's e-mail address.
 */
export const WIDGET_TYPES = ['tracking_form', 'order_lookup'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** What a lookup answer shows besides the status; nothing else leaves the workspace. */
export const WIDGET_OPTIONS = [
  'show_carrier',
  'show_expected_delivery',
  'show_checkpoints',
] as const;
export type WidgetOption = (typeof WIDGET_OPTIONS)[number];

/**
 * A widget a workspace embeds in its store: a tracking form or an order lookup, served
 * without a token at /public/widgets/{id} while enabled. Every lookup through it is recorded
 * as a widget log.
 */
@ApiResource({
  path: '/widgets',
  nested: workspaceRoutes('widgets'),
  tenancy: { workspace: 'workspace' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A tracking widget embedded in a store.',
})
@Entity('widget')
export class Widget {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post', 'put'], example: 'Track your order' })
  @NotBlank()
  @MinLength(4)
  @MaxLength(255)
  @Column('text')
  title: string;

  @ApiProperty({ writable: ['post', 'put'], example: 'tracking_form' })
  @NotBlank()
  @Choice(WIDGET_TYPES)
  @Column('text')
  type: WidgetType;

  @ApiProperty({ writable: ['post', 'put'], example: true })
  @Column('boolean', { default: true })
  enabled: boolean;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  @ApiProperty({ writable: ['post', 'put'], items: 'string', example: ['show_checkpoints'] })
  @EachChoice(WIDGET_OPTIONS)
  @Column('text', { array: true, default: '{}' })
  options: WidgetOption[];

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
