import { Global, Module } from '@nestjs/common';
import { AuthorizationRequests } from './authorization-request';
import { Clock } from './clock';
import { OAuthController } from './oauth.controller';
import { OAuthModel } from './oauth-model';
import { OAuthService } from './oauth.service';
import { PasswordLogin } from './password-login';
import { TokenIssuer } from './token-issuer';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TokenThrottlerGuard } from './token-throttler.guard';
import { AccountThrottle } from '../security/account-throttle';
import { RETENTION_RULES } from '../retention/retention-rule';
import { TOKEN_RETENTION } from './token-retention-store';

/** OAuth2 server, token issuing, sign-in (with the account budgets), and the Clock every expiry uses. */
@Global()
@Module({
  imports: [RateLimitModule],
  controllers: [OAuthController],
  providers: [
    AuthorizationRequests,
    Clock,
    OAuthModel,
    OAuthService,
    PasswordLogin,
    TokenIssuer,
    TokenThrottlerGuard,
    AccountThrottle,
    { provide: RETENTION_RULES, useValue: TOKEN_RETENTION },
  ],
  exports: [Clock, OAuthModel, PasswordLogin, TokenIssuer, AccountThrottle],
})
export class AuthModule {}
