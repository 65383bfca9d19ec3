import { Module } from '@nestjs/common';
import {
  TrackingPageActionsController,
  TrackingPagesController,
} from './tracking-pages.controller';
import { TrackingPagesService } from './tracking-pages.service';

@Module({
  controllers: [TrackingPagesController, TrackingPageActionsController],
  providers: [TrackingPagesService],
  exports: [TrackingPagesService],
})
export class TrackingPagesModule {}
