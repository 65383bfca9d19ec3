import { Module, forwardRef } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { ResourceController } from '../hydra/controller/resource-controller';
import { MediaModule } from '../media/media.module';
import { TeamsModule } from '../teams/teams.module';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { WorkspaceDeletion } from './workspace-deletion';
import { WorkspaceMemberStore } from './workspace-member-store';
import { WorkspaceStore } from './workspace-store';
import { Workspace } from './workspace.entity';
import { WorkspacesService } from './workspaces.service';

export class WorkspacesController extends ResourceController(Workspace, WorkspacesService) {}

@Module({
  imports: [
    MediaModule,
    TrackingPagesModule,
    CredentialsModule,
    // A workspace may be made with a new team; team members get and lose workspaces.
    forwardRef(() => TeamsModule),
  ],
  controllers: [WorkspacesController],
  providers: [WorkspacesService, WorkspaceDeletion, WorkspaceStore, WorkspaceMemberStore],
  exports: [WorkspacesService, WorkspaceDeletion, WorkspaceStore, WorkspaceMemberStore],
})
export class WorkspacesModule {}
