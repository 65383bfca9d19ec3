import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { MediaModule } from '../media/media.module';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { WorkspaceDeletion } from './workspace-deletion';
import { Workspace } from './workspace.entity';
import { WorkspacesService } from './workspaces.service';

export class WorkspacesController extends ResourceController(Workspace, WorkspacesService) {}

@Module({
  imports: [MediaModule, TrackingPagesModule],
  controllers: [WorkspacesController],
  providers: [WorkspacesService, WorkspaceDeletion],
  exports: [WorkspacesService, WorkspaceDeletion],
})
export class WorkspacesModule {}
