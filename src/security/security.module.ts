import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { AccountService } from './account.service';
import { SecurityController } from './security.controller';
import { UserTokenStore } from './user-token-store';
import { UserTokens } from './user-tokens';

/** Sign-up, e-mail verification, password reset, invitation look-up (/security/*). */
@Module({
  imports: [TeamsModule, UsersModule],
  controllers: [SecurityController],
  providers: [AccountService, UserTokens, UserTokenStore],
  exports: [UserTokens],
})
export class SecurityModule {}
