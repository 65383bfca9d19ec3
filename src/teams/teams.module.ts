import { Module, forwardRef } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { InvitationsService } from './invitations.service';
import { TeamMemberStore } from './team-member-store';
import { TeamLookupStore } from './team-lookup-store';
import { TeamMembersController } from './team-members.controller';
import { Team } from './team.entity';
import { TeamMembersService } from './team-members.service';
import { TeamStore } from './team-store';
import { TeamsService } from './teams.service';

export class TeamsController extends ResourceController(Team, TeamsService) {}

@Module({
  // Members get and lose workspaces (workspace_member); workspaces are made with new teams.
  imports: [forwardRef(() => WorkspacesModule)],
  controllers: [TeamsController, TeamMembersController],
  providers: [
    TeamsService,
    InvitationsService,
    TeamMembersService,
    TeamStore,
    TeamMemberStore,
    TeamLookupStore,
  ],
  exports: [TeamsService, InvitationsService, TeamStore, TeamMemberStore, TeamLookupStore],
})
export class TeamsModule {}
