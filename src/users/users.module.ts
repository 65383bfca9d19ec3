import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { User } from './user.entity';
import { UserView } from './user-view';
import { UsersService } from './users.service';

export class UsersController extends ResourceController(User, UsersService) {}

@Module({
  controllers: [UsersController],
  providers: [UsersService, UserView],
  exports: [UserView],
})
export class UsersModule {}
