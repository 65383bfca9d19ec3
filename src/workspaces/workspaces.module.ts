import { Module, forwardRef } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { ResourceController } from '../hydra/controller/resource-controller';
import { MediaModule } from '../media/media.module';
import { TeamsModule } from '../teams/teams.module';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { WorkspaceDeletion } from './workspace-deletion';
import { WorkspaceMemberStore } from './workspace-member-store';
import { WorkspaceStore } from './workspace-store';
import { CREDENTIALS_USES } from '../credentials/credentials-use';
import { WorkspaceCredentialsUse } from './workspace-credentials-use';
import { WorkspaceLookupStore } from './workspace-lookup-store';
import { WorkspaceNotificationStore } from './workspace-notification-store';
import { WorkspacePageStore } from './workspace-page-store';
import { Workspace } from './workspace.entity';
import { WorkspacesService } from './workspaces.service';

export class WorkspacesController extends ResourceController(Workspace, WorkspacesService) {}

@Module({
  imports: [
    MediaModule,
    forwardRef(() => TrackingPagesModule),
    CredentialsModule,
    // A workspace may be made with a new team; team members get and lose workspaces.
    forwardRef(() => TeamsModule),
  ],
  controllers: [WorkspacesController],
  providers: [
    WorkspacesService,
    WorkspaceDeletion,
    WorkspaceStore,
    WorkspaceMemberStore,
    WorkspaceLookupStore,
    WorkspacePageStore,
    WorkspaceNotificationStore,
    // Credentials a workspace sends its e-mail through cannot be deleted.
    { provide: CREDENTIALS_USES, useClass: WorkspaceCredentialsUse },
  ],
  exports: [
    WorkspacesService,
    WorkspaceDeletion,
    WorkspaceStore,
    WorkspaceMemberStore,
    WorkspaceLookupStore,
    WorkspacePageStore,
    WorkspaceNotificationStore,
  ],
})
export class WorkspacesModule {}
