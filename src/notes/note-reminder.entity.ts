import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { DateFilter, ExactFilter, ExistsFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { MaxLength, NotBlank, NotNull } from '../hydra/validation/constraints';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/workspace.entity';
import { COMMENT_MAX_LENGTH, Note } from './note.entity';

/**
 * A reminder about a note for one user at `remindAt`. The spec lists only reads; creating,
 * changing and removing reminders is offered too, as a reminder nobody can create is useless.
 * When due, NoteReminderDispatcher notifies the user in-app and sets `sentAt`.
 */
@ApiResource({
  path: '/note_reminders',
  shortName: 'NoteReminder',
  nested: [
    { path: '/notes/:id/reminders', params: { id: 'note' } },
    { path: '/workspaces/:id/notes/:notes/reminders', params: { id: 'workspace', notes: 'note' } },
    {
      path: '/teams/:id/workspaces/:workspaces/notes/:notes/reminders',
      params: { id: 'workspace.team', workspaces: 'workspace', notes: 'note' },
    },
  ],
  tenancy: { workspace: 'workspace' },
  defaultOrder: { remindAt: 'ASC' },
  description: 'A reminder about a note.',
})
@ApiFilter(
  new ExactFilter(['note', 'user']),
  new DateFilter(['remindAt']),
  new ExistsFilter(['sentAt']),
  new OrderFilter(['remindAt', 'createdAt']),
)
@Entity('note_reminder')
export class NoteReminder {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Note, { nullable: false, onDelete: 'CASCADE' })
  note: Note | null;

  /** The note's workspace, copied on create (tenancy is one indexed comparison). */
  @ApiProperty()
  @ManyToOne(() => Workspace, { nullable: false, onDelete: 'CASCADE' })
  workspace: Workspace | null;

  /**
   * Who is reminded: the caller who creates the reminder (users are visible only to themselves,
   * so naming someone else could not be checked).
   */
  @ApiProperty()
  @ManyToOne(() => User, { nullable: false, onDelete: 'CASCADE' })
  user: User | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @NotNull()
  @Column('timestamptz')
  remindAt: Date;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(COMMENT_MAX_LENGTH)
  @Column('text', { nullable: true })
  comment: string | null;

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  sentAt: Date | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
