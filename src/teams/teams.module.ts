import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { InvitationsService } from './invitations.service';
import { TeamLookupStore } from './team-lookup-store';
import { TeamMembersController } from './team-members.controller';
import { Team } from './team.entity';
import { TeamMembersService } from './team-members.service';
import { TeamsService } from './teams.service';

export class TeamsController extends ResourceController(Team, TeamsService) {}

@Module({
  controllers: [TeamsController, TeamMembersController],
  providers: [TeamsService, InvitationsService, TeamMembersService, TeamLookupStore],
  exports: [TeamsService, InvitationsService, TeamLookupStore],
})
export class TeamsModule {}
