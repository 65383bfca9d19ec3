import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { User } from './user.entity';

export class UsersController extends ResourceController(User) {}

@Module({ controllers: [UsersController] })
export class UsersModule {}
