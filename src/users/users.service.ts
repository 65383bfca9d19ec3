import { Injectable } from '@nestjs/common';
import { assertAccountManager } from '../access/principal';
import { hashPassword, verifyPassword } from '../auth/password-hasher';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { AccountThrottle } from '../security/account-throttle';
import { readPasswordChange } from './password-change.input';
import { readNewPassword } from './password-policy';
import type { User } from './user.entity';

/**
 * PUT /users/{id}: besides the declared properties, `plainPassword` (write-only, at least
 * 8 characters) sets or changes the password; `passwordSet` then reads true. A null
 * plainPassword leaves the password as it is. Changing a password that is set needs the
 * current one (`currentPassword`): a stolen token must not be enough to take the account over
 * (a forgotten password goes through /security/forgot-password). Tokens granted to third-party
 * applications do not manage the user at all.
 */
@Injectable()
export class UsersService implements ResourceHooks<User> {
  constructor(private readonly throttle: AccountThrottle) {}

  async prepare(user: User, ctx: WriteContext): Promise<void> {
    assertAccountManager(ctx.principal, 'the user account');
    const password = readNewPassword(ctx.body.plainPassword, 'plainPassword');
    if (password === null) return;
    const [row] = await ctx.em.query(`SELECT password_hash FROM "user" WHERE id = $1`, [user.id]);
    if (row?.password_hash) {
      const { currentPassword: current } = readPasswordChange(ctx.body);
      if (ctx.request) await this.throttle.spend('password-login', ctx.request, user.id);
      if (!current || !(await verifyPassword(current, row.password_hash))) {
        throw ValidationError.of(
          'currentPassword',
          "This value should be the user's current password.",
          ViolationCodes.invalid,
        );
      }
    }
    user.passwordHash = await hashPassword(password);
  }
}
