import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { OauthClientsModule } from '../oauth-clients/oauth-clients.module';
import { AccessRevocation } from './access-revocation';
import { User } from './user.entity';
import { UserRegistrationStore } from './user-registration-store';
import { UserTrialStore } from './user-trial-store';
import { UserView } from './user-view';
import { UsersService } from './users.service';

export class UsersController extends ResourceController(User, UsersService) {}

@Module({
  imports: [OauthClientsModule],
  controllers: [UsersController],
  providers: [UsersService, UserView, AccessRevocation, UserTrialStore, UserRegistrationStore],
  exports: [UserView, AccessRevocation, UserTrialStore, UserRegistrationStore],
})
export class UsersModule {}
