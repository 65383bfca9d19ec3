import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { TrackingModule } from '../tracking/tracking.module';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { PublicWidgetsController } from './public-widgets.controller';
import { WidgetLog } from './widget-log.entity';
import { WidgetLookupThrottlerGuard } from './widget-lookup-throttler.guard';
import { WidgetLookupService } from './widget-lookup.service';
import { WidgetStore } from './widget-store';
import { Widget } from './widget.entity';
import { WidgetsService } from './widgets.service';
import { RETENTION_RULES } from '../retention/retention-rule';
import { WIDGET_LOG_RETENTION } from './widget-log-retention-store';

export class WidgetsController extends ResourceController(Widget, WidgetsService) {}
export class WidgetLogsController extends ResourceController(WidgetLog) {}

@Module({
  imports: [RateLimitModule, ShipmentsModule, TrackingModule, TrackingPagesModule],
  controllers: [PublicWidgetsController, WidgetsController, WidgetLogsController],
  providers: [
    WidgetsService,
    WidgetLookupService,
    WidgetLookupThrottlerGuard,
    { provide: RETENTION_RULES, useValue: WIDGET_LOG_RETENTION },
    WidgetStore,
  ],
})
export class WidgetsModule {}
