import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { AccountService } from './account.service';
import { SecurityController } from './security.controller';
import { UserTokenStore } from './user-token-store';
import { UserTokens } from './user-tokens';
import { RETENTION_RULES } from '../retention/retention-rule';
import { USER_TOKEN_RETENTION } from './user-token-retention-store';

/** Sign-up, e-mail verification, password reset, invitation look-up (/security/*). */
@Module({
  imports: [TeamsModule, UsersModule],
  controllers: [SecurityController],
  providers: [
    AccountService,
    UserTokens,
    UserTokenStore,
    { provide: RETENTION_RULES, useValue: USER_TOKEN_RETENTION },
  ],
  exports: [UserTokens],
})
export class SecurityModule {}
