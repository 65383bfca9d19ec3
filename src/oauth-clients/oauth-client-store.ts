import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';

/** What the OAuth server reads of a client. */
export interface StoredOAuthClient {
  id: string;
  /** Null for a first-party client. */
  user_id: string | null;
  name: string;
  redirect_uris: string[];
  grants: string[];
  secret_hash: string;
  first_party: boolean;
}

export interface NewOAuthClient {
  userId: string;
  name: string;
  redirectUris: string[];
  publicId: string;
  secretHash: string;
}

/**
 * SQL: whether the client whose id is `clientId` is first-party (the console), for the
 * per-request principal statement (a token of a first-party client acts as the user's own).
 */
export function firstPartyClientSql(clientId: string): string {
  return `EXISTS (SELECT 1 FROM oauth_client fpc WHERE fpc.id = ${clientId} AND fpc.first_party)`;
}

/**
 * The oauth_client table's SQL beyond the resource's own reads and writes: the OAuth server's
 * look-up by public id, the secret and public id set after an insert, and the clients of an
 * account. Statements go as prepared statements on the caller's transaction.
 */
@Injectable()
export class OauthClientStore {
  async byPublicId(db: SqlRunner, publicId: string): Promise<StoredOAuthClient | undefined> {
    return queryOne<StoredOAuthClient>(
      db,
      `SELECT id, user_id, name, redirect_uris, grants, secret_hash, first_party FROM oauth_client WHERE public_id = $1`,
      [publicId],
    );
  }

  /** The oldest client of the user with this name. */
  async byName(
    db: SqlRunner,
    userId: string,
    name: string,
  ): Promise<{ id: string; public_id: string } | undefined> {
    return queryOne(
      db,
      `SELECT id, public_id FROM oauth_client WHERE user_id = $1 AND name = $2 ORDER BY created_at LIMIT 1`,
      [userId, name],
    );
  }

  /** A new client; answers its id. */
  async insert(db: SqlRunner, client: NewOAuthClient): Promise<string> {
    const [row] = await query<{ id: string }>(
      db,
      `INSERT INTO oauth_client (user_id, name, redirect_uris, public_id, secret_hash)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [client.userId, client.name, client.redirectUris, client.publicId, client.secretHash],
    );
    return row.id;
  }

  async setPublicId(db: SqlRunner, id: string, publicId: string): Promise<void> {
    await execute(db, `UPDATE oauth_client SET public_id = $2 WHERE id = $1`, [id, publicId]);
  }

  async setSecretHash(db: SqlRunner, id: string, secretHash: string): Promise<void> {
    await execute(db, `UPDATE oauth_client SET secret_hash = $2 WHERE id = $1`, [id, secretHash]);
  }

  /** Deletes every client the user made (their tokens, refresh tokens and codes cascade). */
  async deleteAllOf(db: SqlRunner, userId: string): Promise<void> {
    await execute(db, `DELETE FROM oauth_client WHERE user_id = $1`, [userId]);
  }
}
