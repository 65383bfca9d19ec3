import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { NOTIFICATION_EVENTS } from '../events/event-types';
import { DateFilter, ExactFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Choice, MaxLength, NotBlank, Regex } from '../hydra/validation/constraints';
import { TrackingPage } from '../tracking-pages/tracking-page.entity';
import { Workspace } from '../workspaces/workspace.entity';

/** `<n>m`, `<n>h` or `<n>d` (minutes, hours, days), at most 30 days. */
export const SCHEDULE_DELAY = /^\s*(\d{1,5})\s*([mhd])\s*$/;

/**
 * An e-mail a workspace sends to the shipment's customer (its `email`, plus cc and bcc) when an
 * event happens: `event` is one of NOTIFICATION_EVENTS (`shipment.delivered`, ...). `subject`
 * and `body` are templates with `{{ variable }}` placeholders (email-template.ts); empty ones
 * use the event's default text. `condition` narrows when it is sent (notification-condition.ts),
 * `scheduleDelay` delays it, `trackingPage` picks the page `{{trackingUrl}}` links to (default:
 * the workspace's default page). `system` marks the defaults made by reset_defaults.
 * PUT replaces: attributes the body leaves out go back to their POST defaults (`event` and
 * `workspace` are POST-only and stay).
 */
@ApiResource({
  path: '/email_notifications',
  nested: [
    {
      path: '/workspaces/:id/email_notifications',
      params: { id: 'workspace' },
      maxItemsPerPage: 50000,
    },
    {
      path: '/teams/:id/workspaces/:workspaces/email_notifications',
      params: { id: 'workspace.team', workspaces: 'workspace' },
    },
  ],
  tenancy: { workspace: 'workspace' },
  defaultOrder: { createdAt: 'ASC' },
  description: 'An e-mail sent to customers when a shipment event happens.',
  replaceOnPut: true,
})
@ApiFilter(
  new ExactFilter(['id', 'event', ['title', { array: false }]]),
  new DateFilter(['createdAt', 'lastEmailSentAt']),
)
@Entity('email_notification')
export class EmailNotification {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'], example: 'shipment.delivered' })
  @NotBlank({ on: ['post'] })
  @Choice(NOTIFICATION_EVENTS)
  @Column('text')
  event: string;

  @ApiProperty({ description: 'Pre-created (by reset_defaults)' })
  @Column('boolean', { default: false })
  system: boolean;

  @ApiProperty({
    writable: ['post', 'put'],
    nullable: true,
    example: 'destinationCountry != Germany',
  })
  @MaxLength(1000)
  @Column('text', { nullable: true })
  condition: string | null;

  @ApiProperty({ writable: ['post', 'put'], nullable: true, example: '2h' })
  @Regex(SCHEDULE_DELAY)
  @Column('text', { nullable: true })
  scheduleDelay: string | null;

  @ApiProperty({ writable: ['post', 'put'], example: true })
  @Column('boolean', { default: true })
  enabled: boolean;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  @ApiProperty({ writable: ['post', 'put'], nullable: true, example: 'Delivered' })
  @MaxLength(255)
  @Column('text', { nullable: true })
  title: string | null;

  @ApiProperty({ writable: ['post', 'put'], type: 'array', items: 'string' })
  @Column('text', { array: true, default: () => "'{}'" })
  cc: string[];

  @ApiProperty({ writable: ['post', 'put'], type: 'array', items: 'string' })
  @Column('text', { array: true, default: () => "'{}'" })
  bcc: string[];

  @ApiProperty({
    writable: ['post', 'put'],
    nullable: true,
    example: 'Your parcel {{trackingNumber}} has been delivered',
  })
  @MaxLength(998)
  @Column('text', { nullable: true })
  subject: string | null;

  @ApiProperty({ writable: ['post', 'put'], nullable: true, csv: false })
  @MaxLength(100000)
  @Column('text', { nullable: true })
  body: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty({ nullable: true })
  @Column('timestamptz', { nullable: true })
  lastEmailSentAt: Date | null;

  @ApiProperty({ writable: ['post', 'put'], nullable: true })
  @ManyToOne(() => TrackingPage, { nullable: true, onDelete: 'SET NULL' })
  trackingPage: TrackingPage | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** Milliseconds of a scheduleDelay (`90m`, `2h`, `1d`); 0 when none. */
export function scheduleDelayMs(delay: string | null | undefined): number {
  const m = delay ? SCHEDULE_DELAY.exec(delay) : null;
  if (!m) return 0;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm' | 'h' | 'd'];
  return Math.min(Number(m[1]) * unit, 30 * 86_400_000);
}
