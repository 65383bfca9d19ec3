import { Module, forwardRef } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { OauthClientsModule } from '../oauth-clients/oauth-clients.module';
import { AccessRevocation } from './access-revocation';
import { UserMailStore } from './user-mail-store';
import { User } from './user.entity';
import { UserStore } from './user-store';
import { UserRegistrationStore } from './user-registration-store';
import { UserTrialStore } from './user-trial-store';
import { UserView } from './user-view';
import { UsersService } from './users.service';

export class UsersController extends ResourceController(User, UsersService) {}

@Module({
  imports: [forwardRef(() => OauthClientsModule)],
  controllers: [UsersController],
  providers: [
    UsersService,
    UserView,
    AccessRevocation,
    UserStore,
    UserTrialStore,
    UserRegistrationStore,
    UserMailStore,
  ],
  exports: [
    UserView,
    AccessRevocation,
    UserStore,
    UserTrialStore,
    UserRegistrationStore,
    UserMailStore,
  ],
})
export class UsersModule {}
