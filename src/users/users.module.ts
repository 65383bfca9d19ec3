import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { OauthClientsModule } from '../oauth-clients/oauth-clients.module';
import { AccessRevocation } from './access-revocation';
import { UserMailStore } from './user-mail-store';
import { User } from './user.entity';
import { UserView } from './user-view';
import { UsersService } from './users.service';

export class UsersController extends ResourceController(User, UsersService) {}

@Module({
  imports: [OauthClientsModule],
  controllers: [UsersController],
  providers: [UsersService, UserView, AccessRevocation, UserMailStore],
  exports: [UserView, AccessRevocation, UserMailStore],
})
export class UsersModule {}
