import { SiteFilesController } from './page/site-files.controller';
import { MiddlewareConsumer, Module, NestModule, RequestMethod, forwardRef } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { OrderItemsModule } from '../order-items/order-items.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { DefaultTrackingPageStore } from './default-tracking-page-store';
import { ShipmentsModule } from '../shipments/shipments.module';
import { TrackingModule } from '../tracking/tracking.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { CustomDomainHomeMiddleware } from './page/custom-domain-home.middleware';
import { HomeSearchService } from './page/home-search.service';
import { HomeSite } from './page/home-site';
import { ImageProxyController } from './page/image-proxy.controller';
import { PageRenderer } from './page/page-renderer';
import { RemoteImages } from './page/remote-images';
import { ShipmentPageReads } from './page/shipment-page.reads';
import { ShipmentPageService } from './page/shipment-page.service';
import { TrackingSiteController } from './page/tracking-site.controller';
import { ReviewStore } from './review-store';
import { ReviewsService } from './reviews.service';
import { ShipmentTransferStore } from './shipment-transfer-store';
import {
  ReviewsController,
  TrackingPageLinksController,
  TrackingPageReviewsController,
} from './tracking-page-links.controller';
import { TrackingPageActions } from './tracking-page-actions.service';
import { TrackingPageLinkGenerator } from './tracking-page-link-generator';
import { TrackingPageLinkStore } from './tracking-page-link-store';
import { TrackingPageLinksService } from './tracking-page-links.service';
import { TrackingPageStore } from './tracking-page-store';
import {
  TrackingPageActionsController,
  TrackingPagesController,
} from './tracking-pages.controller';
import { TrackingPagesService } from './tracking-pages.service';

@Module({
  imports: [
    RateLimitModule,
    CredentialsModule,
    // The owners of what the public pages read: their page stores.
    ShipmentsModule,
    OrderItemsModule,
    CarriersModule,
    TrackingModule,
    // Workspaces embed their default page (WorkspacesService), pages read their workspace.
    forwardRef(() => WorkspacesModule),
  ],
  controllers: [
    SiteFilesController,
    TrackingPagesController,
    TrackingPageActionsController,
    TrackingPageLinksController,
    TrackingPageReviewsController,
    ReviewsController,
    TrackingSiteController,
    ImageProxyController,
  ],
  providers: [
    TrackingPageStore,
    TrackingPageLinkStore,
    ReviewStore,
    TrackingPagesService,
    TrackingPageLinksService,
    TrackingPageActions,
    TrackingPageLinkGenerator,
    ReviewsService,
    ShipmentPageReads,
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
    TrackingPageStore,
  ],
})
export class TrackingPagesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // GET only: the home's form posts to /track/{subdomain}, which answers on every host.
    consumer.apply(CustomDomainHomeMiddleware).forRoutes({ path: '/', method: RequestMethod.GET });
  }
}
