import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { WorkspaceMember } from './workspace-member.entity';
import { Workspace } from './workspace.entity';
import { WorkspacesService } from './workspaces.service';

export class WorkspacesController extends ResourceController(Workspace, WorkspacesService) {}
export class WorkspaceMembersController extends ResourceController(WorkspaceMember) {}

@Module({
  controllers: [WorkspacesController, WorkspaceMembersController],
  providers: [WorkspacesService],
  exports: [WorkspacesService],
})
export class WorkspacesModule {}
