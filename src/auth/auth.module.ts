import { Global, Module } from '@nestjs/common';
import { PRINCIPAL_SOURCE } from '../access/principal-source';
import { OauthClientsModule } from '../oauth-clients/oauth-clients.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AccountThrottle } from '../security/account-throttle';
import { UsersModule } from '../users/users.module';
import { AccessTokenStore } from './access-token-store';
import { AuthorizationRequests } from './authorization-request';
import { OAuthController } from './oauth.controller';
import { OAuthGrantStore } from './oauth-grant-store';
import { OAuthModel } from './oauth-model';
import { OAuthService } from './oauth.service';
import { PasswordLogin } from './password-login';
import { PrincipalStore } from './principal-store';
import { TokenIssuer } from './token-issuer';
import { TokenThrottlerGuard } from './token-throttler.guard';
import { RETENTION_RULES } from '../retention/retention-rule';
import { TOKEN_RETENTION } from './token-retention-store';

/**
 * OAuth2 server, token issuing, sign-in (with the account budgets), the Clock every expiry
 * uses, and the principal of every request: the access layer's PRINCIPAL_SOURCE.
 */
@Global()
@Module({
  imports: [RateLimitModule, UsersModule, OauthClientsModule],
  controllers: [OAuthController],
  providers: [
    AccessTokenStore,
    AuthorizationRequests,
    OAuthGrantStore,
    OAuthModel,
    OAuthService,
    PasswordLogin,
    PrincipalStore,
    { provide: PRINCIPAL_SOURCE, useExisting: PrincipalStore },
    TokenIssuer,
    TokenThrottlerGuard,
    AccountThrottle,
    { provide: RETENTION_RULES, useValue: TOKEN_RETENTION },
  ],
  exports: [OAuthModel, PasswordLogin, TokenIssuer, AccountThrottle, PRINCIPAL_SOURCE],
})
export class AuthModule {}
