import { Column, CreateDateColumn, Entity, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { BooleanFilter, DateFilter, ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { User } from '../users/user.entity';

/**
 * An in-app message to one user (for example the result of a background tracking check).
 * Fields follow the reference Notification resource; the owner is the only one who sees it.
 */
@ApiResource({
  path: '/notifications',
  operations: ['list', 'get', 'put'],
  nested: [{ path: '/users/:id/notifications', params: { id: 'user' } }],
  tenancy: { user: 'user' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'An in-app notification of the current user.',
})
@ApiFilter(
  new ExactFilter(['tag', ['message', { array: false }]]),
  new OrderFilter(['createdAt']),
  new BooleanFilter(['unread']),
  new DateFilter(['createdAt']),
)
@Entity('notification')
export class Notification {
  @ApiProperty()
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  user: User;

  @ApiProperty({ description: 'What the notification is about, e.g. check_tracking_numbers' })
  @Column('text')
  tag: string;

  @ApiProperty()
  @Column('text')
  message: string;

  @ApiProperty({ type: 'array', items: 'string', description: 'IRIs of the records concerned' })
  @Column('jsonb', { default: () => "'[]'::jsonb" })
  data: string[];

  @ApiProperty({ writable: ['put'], description: 'PUT {"unread": false} marks it as read' })
  @Column('boolean', { default: true })
  unread: boolean;

  @ApiProperty({ description: 'When it was marked as read; null while unread' })
  @Column('timestamptz', { nullable: true })
  readAt: Date | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  updatedAt: Date | null;

  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;
}
