import { Module, forwardRef } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { MediaModule } from '../media/media.module';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { WorkspaceDeletion } from './workspace-deletion';
import { WorkspaceNotificationStore } from './workspace-notification-store';
import { WorkspacePageStore } from './workspace-page-store';
import { Workspace } from './workspace.entity';
import { WorkspacesService } from './workspaces.service';

export class WorkspacesController extends ResourceController(Workspace, WorkspacesService) {}

@Module({
  imports: [MediaModule, forwardRef(() => TrackingPagesModule)],
  controllers: [WorkspacesController],
  providers: [WorkspacesService, WorkspaceDeletion, WorkspacePageStore, WorkspaceNotificationStore],
  exports: [WorkspacesService, WorkspaceDeletion, WorkspacePageStore, WorkspaceNotificationStore],
})
export class WorkspacesModule {}
