import { Injectable } from '@nestjs/common';
import { hashPassword, verifyPassword } from '../auth/password-hasher';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { AccountThrottle } from '../security/account-throttle';
import { AccessRevocation } from './access-revocation';
import { readPasswordChange } from './password-change.input';
import { readNewPassword } from './password-policy';
import type { User } from './user.entity';
import { UserStore } from './user-store';

/** What one PUT of a user carries from `prepare` to `afterWrite`. */
export interface UserWrite {
  /** Set when the write changes a password that is set: what the change keeps. */
  passwordChange: { keepOAuthClients: boolean } | null;
}

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
export class UsersService implements ResourceHooks<User, UserWrite> {
  constructor(
    private readonly users: UserStore,
    private readonly throttle: AccountThrottle,
    private readonly revocation: AccessRevocation,
  ) {}

  begin(): UserWrite {
    return { passwordChange: null };
  }

  async prepare(user: User, ctx: WriteContext<UserWrite>): Promise<void> {
    const password = readNewPassword(ctx.body.plainPassword, 'plainPassword');
    if (password === null) return;
    const { currentPassword: current, keepOAuthClients } = readPasswordChange(ctx.body);
    const stored = await this.users.passwordHash(ctx.em, user.id);
    if (stored) {
      if (ctx.request) await this.throttle.spend('password-login', ctx.request, user.id);
      if (!current || !(await verifyPassword(current, stored))) {
        throw ValidationError.of(
          'currentPassword',
          "This value should be the user's current password.",
          ViolationCodes.invalid,
        );
      }
      ctx.state.passwordChange = { keepOAuthClients: keepOAuthClients === true };
    }
    user.passwordHash = await hashPassword(password);
  }

  /** After the write's own checks, in its transaction: a refused write revokes nothing. */
  async afterWrite(user: User, ctx: WriteContext<UserWrite>): Promise<void> {
    const change = ctx.state.passwordChange;
    if (!change) return;
    await this.revocation.revoke(ctx.em, user.id, {
      keepOAuthClients: change.keepOAuthClients,
      keepTokenId: ctx.principal.tokenId ?? null,
    });
  }
}
