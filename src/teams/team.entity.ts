import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { MaxLength, NotBlank } from '../hydra/validation/constraints';

@ApiResource({
  path: '/teams',
  tenancy: { self: 'team' },
  description: 'An account holder: owns workspaces and has members.',
})
@Entity('team')
export class Team {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @NotBlank()
  @MaxLength(255)
  @Column('text')
  name: string;

  @ApiProperty({
    sql: '(SELECT count(*)::int FROM workspace w WHERE w.team_id = {a}.id)',
    type: 'integer',
  })
  workspacesCount?: number;

  @ApiProperty({
    sql: '(SELECT count(*)::int FROM team_member m WHERE m.team_id = {a}.id AND m.member_id IS NOT NULL)',
    type: 'integer',
  })
  usersCount?: number;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
