import { Global, Module } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { Clock } from './clock';
import { OAuthController } from './oauth.controller';
import { OAuthModel } from './oauth-model';
import { OAuthService } from './oauth.service';
import { PasswordLogin } from './password-login';
import { TokenIssuer } from './token-issuer';
import { TOKEN_THROTTLER_STORAGE, TokenThrottlerGuard } from './token-throttler.guard';

/** OAuth2 server, token issuing, sign-in, and the Clock every expiry uses. */
@Global()
@Module({
  controllers: [OAuthController],
  providers: [
    Clock,
    OAuthModel,
    OAuthService,
    PasswordLogin,
    TokenIssuer,
    TokenThrottlerGuard,
    { provide: TOKEN_THROTTLER_STORAGE, useClass: ThrottlerStorageService },
  ],
  exports: [Clock, OAuthModel, PasswordLogin, TokenIssuer],
})
export class AuthModule {}
