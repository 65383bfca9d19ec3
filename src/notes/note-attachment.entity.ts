import { CreateDateColumn, Entity, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Media } from '../media/media.entity';
import { mediaFieldSql } from '../media/media-store';
import { Workspace } from '../workspaces/workspace.entity';
import { Note } from './note.entity';

/**
 * A file attached to a note. Added with `POST /notes/{id}/attachments` (multipart `file`, or
 * `{media: <IRI>}`) or through the note's `attachment`; removed with DELETE.
 */
@ApiResource({
  path: '/note_attachments',
  shortName: 'NoteAttachment',
  operations: ['list', 'get', 'delete'],
  nested: [
    { path: '/notes/:id/attachments', params: { id: 'note' } },
    {
      path: '/workspaces/:id/notes/:notes/attachments',
      params: { id: 'workspace', notes: 'note' },
    },
    {
      path: '/teams/:id/workspaces/:workspaces/notes/:notes/attachments',
      params: { id: 'workspace.team', workspaces: 'workspace', notes: 'note' },
    },
  ],
  tenancy: { workspace: 'workspace' },
  defaultOrder: { createdAt: 'ASC' },
  description: 'A file attached to a note.',
})
@Entity('note_attachment')
export class NoteAttachment {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty()
  @ManyToOne(() => Note, { nullable: false, onDelete: 'CASCADE' })
  note: Note;

  @ManyToOne(() => Workspace, { nullable: false, onDelete: 'CASCADE' })
  workspace: Workspace;

  @ApiProperty({ embed: true })
  @ManyToOne(() => Media, { nullable: false, onDelete: 'CASCADE' })
  media: Media;

  @ApiProperty({ sql: mediaFieldSql('originalName', '{a}.media_id') })
  fileName?: string | null;

  @ApiProperty({ sql: mediaFieldSql('mimeType', '{a}.media_id') })
  mimeType?: string;

  @ApiProperty({ sql: mediaFieldSql('size', '{a}.media_id'), type: 'integer' })
  size?: number;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
