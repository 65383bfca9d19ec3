import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { TeamsModule } from '../teams/teams.module';
import { WorkspaceMember } from '../workspaces/workspace-member.entity';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { WorkspaceMembersService } from './workspace-members.service';
import { WorkspacePermissionsBatch } from './workspace-permissions-batch';
import { WorkspacePermissionsBatchController } from './workspace-permissions-batch.controller';

export class WorkspaceMembersController extends ResourceController(
  WorkspaceMember,
  WorkspaceMembersService,
) {}

@Module({
  imports: [TeamsModule, WorkspacesModule],
  controllers: [WorkspaceMembersController, WorkspacePermissionsBatchController],
  providers: [WorkspaceMembersService, WorkspacePermissionsBatch],
})
export class WorkspaceMembersModule {}
