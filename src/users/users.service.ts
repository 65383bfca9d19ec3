import { Injectable } from '@nestjs/common';
import { hashPassword } from '../auth/password-hasher';
import type { ResourceHooks, WriteContext } from '../hydra/write/resource-hooks';
import { readNewPassword } from './password-policy';
import type { User } from './user.entity';

/**
 * PUT /users/{id}: besides the declared properties, `plainPassword` (write-only, at least
 * 8 characters) sets or changes the password; `passwordSet` then reads true. A null
 * plainPassword leaves the password as it is.
 */
@Injectable()
export class UsersService implements ResourceHooks<User> {
  async prepare(user: User, ctx: WriteContext): Promise<void> {
    const password = readNewPassword(ctx.body.plainPassword, 'plainPassword');
    if (password !== null) user.passwordHash = await hashPassword(password);
  }
}
