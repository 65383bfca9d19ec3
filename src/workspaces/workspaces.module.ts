import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { MediaModule } from '../media/media.module';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { WorkspaceDeletion } from './workspace-deletion';
import { CREDENTIALS_USES } from '../credentials/credentials-use';
import { WorkspaceCredentialsUse } from './workspace-credentials-use';
import { WorkspaceLookupStore } from './workspace-lookup-store';
import { Workspace } from './workspace.entity';
import { WorkspacesService } from './workspaces.service';

export class WorkspacesController extends ResourceController(Workspace, WorkspacesService) {}

@Module({
  imports: [MediaModule, TrackingPagesModule],
  controllers: [WorkspacesController],
  providers: [
    WorkspacesService,
    WorkspaceDeletion,
    WorkspaceLookupStore,
    // Credentials a workspace sends its e-mail through cannot be deleted.
    { provide: CREDENTIALS_USES, useClass: WorkspaceCredentialsUse },
  ],
  exports: [WorkspacesService, WorkspaceDeletion, WorkspaceLookupStore],
})
export class WorkspacesModule {}
