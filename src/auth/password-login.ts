import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UserStore } from '../users/user-store';
import { hashPassword, needsRehash, verifyPassword } from './password-hasher';

export interface AuthenticatedUser {
  id: string;
  email: string;
}

/** E-mail and password sign-in (the authorization page). */
@Injectable()
export class PasswordLogin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserStore,
  ) {}

  /**
   * The user, or null for an unknown e-mail, a wrong password, no password or an unverified
   * address: one answer for all, and the same scrypt work in every case.
   */
  async authenticate(email: string, password: string): Promise<AuthenticatedUser | null> {
    const row = await this.users.byEmail(this.dataSource, email.trim());
    const ok = await verifyPassword(password, row?.password_hash ?? null);
    if (!ok || !row?.email_verified) return null;
    if (row.password_hash && needsRehash(row.password_hash)) {
      await this.users.setPasswordHash(this.dataSource, row.id, await hashPassword(password));
    }
    return { id: row.id, email: row.email };
  }
}
