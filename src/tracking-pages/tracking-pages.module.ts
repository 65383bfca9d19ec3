import { Module } from '@nestjs/common';
import { ReviewsService } from './reviews.service';
import { ReviewsController, TrackingPageLinksController } from './tracking-page-links.controller';
import { TrackingPageLinksService } from './tracking-page-links.service';
import {
  TrackingPageActionsController,
  TrackingPagesController,
} from './tracking-pages.controller';
import { TrackingPagesService } from './tracking-pages.service';

@Module({
  controllers: [
    TrackingPagesController,
    TrackingPageActionsController,
    TrackingPageLinksController,
    ReviewsController,
  ],
  providers: [TrackingPagesService, TrackingPageLinksService, ReviewsService],
  exports: [TrackingPagesService, TrackingPageLinksService],
})
export class TrackingPagesModule {}
