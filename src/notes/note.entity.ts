import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource, workspaceRoutes } from '../hydra/metadata/decorators';
import { MaxLength, NotBlank } from '../hydra/validation/constraints';
import { Media } from '../media/media.entity';
import { User } from '../users/user.entity';
import { userFullNameSql } from '../users/user-note-store';
import { userPhotoSql } from '../users/user-photo';
import { Workspace } from '../workspaces/workspace.entity';

export const COMMENT_MAX_LENGTH = 10000;

/**
 * A comment by a user on one record of a workspace: `entity` is the record's collection
 * (`orders`, `shipments`, ...) and `entityId` its id. `attachment` is the note's main file
 * (a media IRI on write, `{id, filePath}` on read); every file is listed under
 * `/notes/{id}/attachments`.
 */
@ApiResource({
  path: '/notes',
  nested: workspaceRoutes('notes'),
  tenancy: { workspace: 'workspace' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A comment on an order, a shipment or another record of a workspace.',
})
@ApiFilter(new ExactFilter(['entity', 'entityId']), new OrderFilter(['createdAt']))
@Entity('note')
export class Note {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Workspace, { nullable: false, onDelete: 'CASCADE' })
  workspace: Workspace | null;

  /** Checked against the workspace-owned resources by NotesService. */
  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @Column('text')
  entity: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @Column('uuid')
  entityId: string;

  /** The author: the caller who created the note. */
  @ApiProperty()
  @ManyToOne(() => User, { nullable: true, onDelete: 'SET NULL' })
  user: User | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(COMMENT_MAX_LENGTH)
  @Column('text', { nullable: true })
  comment: string | null;

  @ApiProperty({ writable: ['post', 'put'], embed: true, nullable: true })
  @ManyToOne(() => Media, { nullable: true, onDelete: 'SET NULL' })
  attachment: Media | null;

  @ApiProperty({
    sql: userFullNameSql('{a}.user_id'),
  })
  userFullName?: string | null;

  /** Where the author's photo is fetched (the reference's `userPhoto`), or null. */
  @ApiProperty({ sql: userPhotoSql('{a}.user_id'), nullable: true })
  userPhoto?: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
