import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { MediaModule } from '../media/media.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { RETENTION_RULES } from '../retention/retention-rule';
import { EXPORT_RETENTION, ExportStore } from './export-store';
import { Export } from './export.entity';
import { ExportsController } from './exports.controller';
import { ExportsService } from './exports.service';

/** GET /exports, /exports/{id}: the caller's exports. */
export class ExportsResourceController extends ResourceController(Export) {}

/** POST /export, the background export job and GET /exports/{id}/download. */
@Module({
  imports: [MediaModule, NotificationsModule],
  controllers: [ExportsController, ExportsResourceController],
  providers: [
    ExportsService,
    ExportStore,
    { provide: RETENTION_RULES, useValue: EXPORT_RETENTION },
  ],
})
export class ExportsModule {}
