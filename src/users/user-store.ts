import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';

/** A user's id and e-mail address (as text: the column is citext). */
export interface UserIdentity {
  id: string;
  email: string;
}

/** What a sign-in or a sign-up reads of an account. */
export interface UserCredentials extends UserIdentity {
  password_hash: string | null;
  email_verified: boolean;
}

export interface NewUser {
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/**
 * The user table's SQL: accounts, their passwords and proofs of address. Statements go as
 * prepared statements on the caller's transaction (query).
 */
@Injectable()
export class UserStore {
  async byEmail(db: SqlRunner, email: string): Promise<UserCredentials | undefined> {
    return queryOne<UserCredentials>(
      db,
      `SELECT id, email::text AS email, password_hash, email_verified FROM "user" WHERE email = $1`,
      [email],
    );
  }

  /** The user when their address is proven, else undefined. */
  async verifiedIdentity(db: SqlRunner, id: string): Promise<UserIdentity | undefined> {
    return queryOne<UserIdentity>(
      db,
      `SELECT id, email::text AS email FROM "user" WHERE id = $1 AND email_verified`,
      [id],
    );
  }

  async passwordHash(db: SqlRunner, id: string): Promise<string | null> {
    const row = await queryOne<{ password_hash: string | null }>(
      db,
      `SELECT password_hash FROM "user" WHERE id = $1`,
      [id],
    );
    return row?.password_hash ?? null;
  }

  /** Whether the user proved their address; `lock` holds the row until the transaction ends. */
  async emailVerified(db: SqlRunner, id: string, lock = false): Promise<boolean | undefined> {
    const row = await queryOne<{ email_verified: boolean }>(
      db,
      `SELECT email_verified FROM "user" WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return row?.email_verified;
  }

  async setPasswordHash(db: SqlRunner, id: string, passwordHash: string): Promise<void> {
    await execute(db, `UPDATE "user" SET password_hash = $2 WHERE id = $1`, [id, passwordHash]);
  }

  async recordLogin(db: SqlRunner, id: string, at: Date): Promise<void> {
    await execute(db, `UPDATE "user" SET last_logged_in_at = $2 WHERE id = $1`, [id, at]);
  }

  /** A new unverified account; undefined when the address has one already. */
  async insertIfNew(db: SqlRunner, user: NewUser): Promise<UserIdentity | undefined> {
    return queryOne<UserIdentity>(
      db,
      `INSERT INTO "user" (email, first_name, last_name) VALUES ($1, $2, $3)
       ON CONFLICT (email) DO NOTHING RETURNING id, email::text AS email`,
      [user.email, user.firstName, user.lastName],
    );
  }

  /**
   * The address is proven: verified, and the password set to `passwordHash` (`replace`: even
   * when null; else only when one is given).
   */
  async markVerified(
    db: SqlRunner,
    id: string,
    passwordHash: string | null,
    replace: boolean,
  ): Promise<UserIdentity> {
    const [row] = await query<UserIdentity>(
      db,
      `UPDATE "user" SET email_verified = true,
              password_hash = CASE WHEN $3 THEN $2 ELSE COALESCE($2, password_hash) END,
              updated_at = now()
        WHERE id = $1 RETURNING id, email::text AS email`,
      [id, passwordHash, replace],
    );
    return row;
  }

  /** A verified account for the address, created or taken over; the password when given. */
  async upsertVerified(
    db: SqlRunner,
    email: string,
    passwordHash: string | null,
  ): Promise<UserIdentity> {
    const [row] = await query<UserIdentity>(
      db,
      `INSERT INTO "user" (email, email_verified, password_hash) VALUES ($1, true, $2)
       ON CONFLICT (email) DO UPDATE SET email_verified = true,
         password_hash = COALESCE(EXCLUDED.password_hash, "user".password_hash), updated_at = now()
       RETURNING id, email::text AS email`,
      [email, passwordHash],
    );
    return row;
  }

  /** Deletes the accounts (their memberships, tokens and clients go by cascade). */
  async deleteAll(db: SqlRunner, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await execute(db, `DELETE FROM "user" WHERE id = ANY($1::uuid[])`, [ids]);
  }
}

/*
 * SQL fragments for other modules' statements over users (a token's user, a member's name):
 * the table and its columns stay named here. Arguments are SQL expressions or aliases.
 */

/** Joins the user `userId` as `alias`. */
export function joinUserSql(alias: string, userId: string): string {
  return `JOIN "user" ${alias} ON ${alias}.id = ${userId}`;
}

/** The e-mail address (text) of the user joined as `alias`. */
export function userEmailSql(alias: string): string {
  return `${alias}.email::text`;
}

/** True when the user joined as `alias` has the address `email`. */
export function userHasEmailSql(alias: string, email: string): string {
  return `${alias}.email = ${email}`;
}

/** The display name of user `userId`: first and last name, null when both are blank. */
export function userNameOfSql(userId: string): string {
  return `(SELECT NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), '') FROM "user" u WHERE u.id = ${userId})`;
}

/** The e-mail address (text) of user `userId`. */
export function userEmailOfSql(userId: string): string {
  return `(SELECT u.email::text FROM "user" u WHERE u.id = ${userId})`;
}

/** When user `userId` last signed in (null: never). */
export function userLastLoggedInOfSql(userId: string): string {
  return `(SELECT u.last_logged_in_at FROM "user" u WHERE u.id = ${userId})`;
}
