import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';

/** A new account as a sign-up from outside creates it (the storefront app's registration). */
export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  emailVerified?: boolean;
}

/** An account as a registration goes on with it. */
export interface RegisteredUser {
  id: string;
  email: string;
}

/** Accounts created by registrations that do not go through POST /users. */
@Injectable()
export class UserRegistrationStore {
  /** Creates the account; null when the address has one already (nothing changes then). */
  async createUnlessTaken(runner: SqlRunner, user: NewUser): Promise<RegisteredUser | null> {
    const row = await queryOne<RegisteredUser>(
      runner,
      `INSERT INTO "user" (email, first_name, last_name, email_verified)
       VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id, email::text AS email`,
      [user.email, user.firstName, user.lastName, user.emailVerified ?? false],
    );
    return row ?? null;
  }

  /** Creates an account at `email`, which must be free (a stand-in address). */
  async create(runner: SqlRunner, user: NewUser): Promise<RegisteredUser> {
    const row = await queryOne<RegisteredUser>(
      runner,
      `INSERT INTO "user" (email, first_name, last_name) VALUES ($1, $2, $3)
       RETURNING id, email::text AS email`,
      [user.email, user.firstName, user.lastName],
    );
    return row!;
  }

  async setPasswordHash(runner: SqlRunner, userId: string, hash: string): Promise<void> {
    await query(runner, 'UPDATE "user" SET password_hash = $2 WHERE id = $1', [userId, hash]);
  }
}
