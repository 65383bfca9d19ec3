import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { DefaultTrackingPageStore } from './default-tracking-page-store';
import { CustomDomainHomeMiddleware } from './page/custom-domain-home.middleware';
import { HomeSearchService } from './page/home-search.service';
import { HomeSite } from './page/home-site';
import { ImageProxyController } from './page/image-proxy.controller';
import { PageRenderer } from './page/page-renderer';
import { RemoteImages } from './page/remote-images';
import { ShipmentPageService } from './page/shipment-page.service';
import { TrackingSiteController } from './page/tracking-site.controller';
import { ReviewsService } from './reviews.service';
import { ShipmentTransferStore } from './shipment-transfer-store';
import {
  ReviewsController,
  TrackingPageLinksController,
  TrackingPageReviewsController,
} from './tracking-page-links.controller';
import { TrackingPageActions } from './tracking-page-actions.service';
import { TrackingPageLinkGenerator } from './tracking-page-link-generator';
import { TrackingPageLinksService } from './tracking-page-links.service';
import {
  TrackingPageActionsController,
  TrackingPagesController,
} from './tracking-pages.controller';
import { TrackingPagesService } from './tracking-pages.service';

@Module({
  imports: [RateLimitModule, CredentialsModule],
  controllers: [
    TrackingPagesController,
    TrackingPageActionsController,
    TrackingPageLinksController,
    TrackingPageReviewsController,
    ReviewsController,
    TrackingSiteController,
    ImageProxyController,
  ],
  providers: [
    TrackingPagesService,
    TrackingPageLinksService,
    TrackingPageActions,
    TrackingPageLinkGenerator,
    ReviewsService,
    ShipmentPageService,
    HomeSearchService,
    HomeSite,
    PageRenderer,
    RemoteImages,
    DefaultTrackingPageStore,
    ShipmentTransferStore,
  ],
  exports: [
    TrackingPagesService,
    TrackingPageLinksService,
    DefaultTrackingPageStore,
    ShipmentTransferStore,
  ],
})
export class TrackingPagesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // GET only: the home's form posts to /track/{subdomain}, which answers on every host.
    consumer.apply(CustomDomainHomeMiddleware).forRoutes({ path: '/', method: RequestMethod.GET });
  }
}
