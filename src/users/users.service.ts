import { Injectable } from '@nestjs/common';
import { hashPassword, verifyPassword } from '../auth/password-hasher';
import { ValidationError, ViolationCodes } from '../hydra/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/write/resource-hooks';
import { AccountThrottle } from '../security/account-throttle';
import { AccessRevocation } from './access-revocation';
import { readPasswordChange } from './password-change.input';
import { readNewPassword } from './password-policy';
import type { User } from './user.entity';

/**
 * PUT /users/{id}: besides the declared properties, `plainPassword` (write-only, at least
 * 8 characters) sets or changes the password; `passwordSet` then reads true. A null
 * plainPassword leaves the password as it is. Changing a password that is set needs the
 * current one (`currentPassword`): a stolen token must not be enough to take the account over
 * (a forgotten password goes through /security/forgot-password). Tokens granted to third-party
 * applications do not manage the user at all (the resource declares `delegated: { put: false }`).
 *
 * A change ends the access whoever knew the old password may have kept: every other token,
 * refresh token and code, and the account's OAuth clients unless `keepOAuthClients: true`. The
 * caller's own token stays (unless it belongs to a client the change deletes). Setting a first
 * password revokes nothing: there was no password to steal.
 */
@Injectable()
export class UsersService implements ResourceHooks<User> {
  /** Users whose set password this write changes, with what they keep. */
  private readonly changed = new WeakMap<User, { keepOAuthClients: boolean }>();

  constructor(
    private readonly throttle: AccountThrottle,
    private readonly revocation: AccessRevocation,
  ) {}

  async prepare(user: User, ctx: WriteContext): Promise<void> {
    const password = readNewPassword(ctx.body.plainPassword, 'plainPassword');
    if (password === null) return;
    const { currentPassword: current, keepOAuthClients } = readPasswordChange(ctx.body);
    const [row] = await ctx.em.query(`SELECT password_hash FROM "user" WHERE id = $1`, [user.id]);
    if (row?.password_hash) {
      if (ctx.request) await this.throttle.spend('password-login', ctx.request, user.id);
      if (!current || !(await verifyPassword(current, row.password_hash))) {
        throw ValidationError.of(
          'currentPassword',
          "This value should be the user's current password.",
          ViolationCodes.invalid,
        );
      }
      this.changed.set(user, { keepOAuthClients: keepOAuthClients === true });
    }
    user.passwordHash = await hashPassword(password);
  }

  /** After the write's own checks, in its transaction: a refused write revokes nothing. */
  async afterWrite(user: User, ctx: WriteContext): Promise<void> {
    const change = this.changed.get(user);
    if (!change) return;
    await this.revocation.revoke(ctx.em, user.id, {
      keepOAuthClients: change.keepOAuthClients,
      keepTokenId: ctx.principal.tokenId ?? null,
    });
  }
}
