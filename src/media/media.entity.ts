import { Column, CreateDateColumn, Entity, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/workspace.entity';

/**
 * An uploaded file (`POST /media`, multipart field `file`). Read as `{id, filePath}` like the
 * reference service. Visible to its uploader and, once attached to a workspace (logo, e-mail
 * logo, note attachment), to that workspace's members.
 */
@ApiResource({
  path: '/media',
  shortName: 'Media',
  operations: ['list', 'get'],
  tenancy: { anyOf: [{ user: 'uploadedBy' }, { workspace: 'workspace' }] },
  defaultOrder: { createdAt: 'DESC' },
  description: 'An uploaded file: logos, note attachments.',
})
@Entity('media')
export class Media {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Where clients fetch the file (FileStorage.publicPath of the storage key). */
  @ApiProperty()
  @Column('text')
  filePath: string;

  /** Null until the file is attached to something of a workspace. */
  @ManyToOne(() => Workspace, { nullable: true, onDelete: 'CASCADE' })
  workspace: Workspace | null;

  @ManyToOne(() => User, { nullable: true, onDelete: 'SET NULL' })
  uploadedBy: User | null;

  @Column('text')
  storageKey: string;

  @Column('text', { nullable: true })
  originalName: string | null;

  @Column('text')
  mimeType: string;

  @Column('int')
  size: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
