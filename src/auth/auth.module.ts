import { Global, Module } from '@nestjs/common';
import { AuthorizationRequests } from './authorization-request';
import { OAuthController } from './oauth.controller';
import { OAuthModel } from './oauth-model';
import { OAuthService } from './oauth.service';
import { PasswordLogin } from './password-login';
import { TokenIssuer } from './token-issuer';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TokenThrottlerGuard } from './token-throttler.guard';
import { AccountThrottle } from '../security/account-throttle';

/** OAuth2 server, token issuing and sign-in (with the account budgets). */
@Global()
@Module({
  imports: [RateLimitModule],
  controllers: [OAuthController],
  providers: [
    AuthorizationRequests,
    OAuthModel,
    OAuthService,
    PasswordLogin,
    TokenIssuer,
    TokenThrottlerGuard,
    AccountThrottle,
  ],
  exports: [OAuthModel, PasswordLogin, TokenIssuer, AccountThrottle],
})
export class AuthModule {}
