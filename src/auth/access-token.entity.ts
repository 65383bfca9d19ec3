import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { User } from '../users/user.entity';

/**
 * An issued bearer token. Only its SHA-256 is stored, so a database leak
 * yields no usable tokens and a look-up costs one indexed equality.
 */
@Entity('access_token')
export class AccessToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index({ unique: true })
  @Column('text')
  tokenHash: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  user: User;

  /** OAuth client the token was issued to (null for first-party sessions). */
  @Column('uuid', { nullable: true })
  clientId: string | null;

  @Column('text', { nullable: true })
  scope: string | null;

  @Column('timestamptz')
  expiresAt: Date;

  @Column('timestamptz', { nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
