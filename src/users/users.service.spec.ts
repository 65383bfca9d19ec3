import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { hashPassword, verifyPassword } from '../auth/password-hasher';
import type { WriteContext } from '../hydra/core/resource-hooks';
import { ValidationError } from '../common/errors/api-errors';
import type { AccountThrottle } from '../security/account-throttle';
import type { AccessRevocation, KeptAccess } from './access-revocation';
import type { User } from './user.entity';
import type { UserStore } from './user-store';
import { UsersService, type UserWrite } from './users.service';

// scrypt is password-hasher.spec.ts's: here a stand-in keeps each rule a matter of milliseconds.
jest.mock('../auth/password-hasher', () => ({
  hashPassword: async (password: string) => `hashed:${password}`,
  verifyPassword: async (password: string, hash: string | null) => hash === `hashed:${password}`,
}));

function setUp(storedHash: string | null) {
  const revoked: KeptAccess[] = [];
  const spent: string[] = [];
  const users: Pick<UserStore, 'passwordHash'> = { passwordHash: async () => storedHash };
  const service = new UsersService(
    users as UserStore,
    { spend: async (action: string) => void spent.push(action) } as unknown as AccountThrottle,
    {
      revoke: async (_em: unknown, _id: string, kept: KeptAccess) => void revoked.push(kept),
    } as unknown as AccessRevocation,
  );
  const put = async (body: Record<string, unknown>) => {
    const user = { id: 'u-1' } as User;
    const ctx = {
      principal: { userId: 'u-1', tokenId: 'token-1' },
      operation: 'put',
      em: {} as EntityManager,
      body,
      nested: {},
      request: {} as Request,
      state: service.begin(),
    } as unknown as WriteContext<UserWrite>;
    await service.prepare(user, ctx);
    await service.afterWrite(user, ctx);
    return user;
  };
  return { put, revoked, spent };
}

describe('UsersService: passwords', () => {
  it('a first password is set without the current one and revokes nothing', async () => {
    const { put, revoked } = setUp(null);
    const user = await put({ plainPassword: 'a first password' });
    expect(await verifyPassword('a first password', user.passwordHash)).toBe(true);
    expect(revoked).toEqual([]);
  });

  it('changing a set password needs the current one (422, a spent sign-in attempt)', async () => {
    const { put, revoked, spent } = setUp(await hashPassword('the old password'));
    for (const currentPassword of [undefined, 'a wrong password']) {
      const error = await put({ plainPassword: 'a new password', currentPassword }).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations[0].propertyPath).toBe('currentPassword');
    }
    expect(spent).toEqual(['password-login', 'password-login']);
    expect(revoked).toEqual([]);
  });

  it('a change ends every other access, keeping the caller’s token and, if asked, the clients', async () => {
    const { put, revoked } = setUp(await hashPassword('the old password'));
    await put({ plainPassword: 'a new password', currentPassword: 'the old password' });
    await put({
      plainPassword: 'a new password',
      currentPassword: 'the old password',
      keepOAuthClients: true,
    });
    expect(revoked).toEqual([
      { keepOAuthClients: false, keepTokenId: 'token-1' },
      { keepOAuthClients: true, keepTokenId: 'token-1' },
    ]);
  });

  it('no plainPassword (or null) leaves the password and the access as they are', async () => {
    const { put, revoked } = setUp(await hashPassword('the old password'));
    expect((await put({ firstName: 'Jo' })).passwordHash).toBeUndefined();
    expect((await put({ plainPassword: null })).passwordHash).toBeUndefined();
    expect(revoked).toEqual([]);
  });
});
