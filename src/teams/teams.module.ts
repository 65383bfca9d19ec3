import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { Team } from './team.entity';
import { TeamsService } from './teams.service';

export class TeamsController extends ResourceController(Team, TeamsService) {}

@Module({ controllers: [TeamsController], providers: [TeamsService], exports: [TeamsService] })
export class TeamsModule {}
