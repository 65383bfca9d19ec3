import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { EVENT_DELIVERY_TARGETS } from '../events/delivery-targets';
import { NotificationsModule } from '../notifications/notifications.module';
import { RETENTION_RULES } from '../retention/retention-rule';
import { StatusStoreModule } from '../statuses/status-store.module';
import { TeamsModule } from '../teams/teams.module';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { WORKFLOW_EXECUTORS } from '../workflows/workflow-executors';
import { WorkflowStoresModule } from '../workflows/workflow-stores.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { StoreOrderImporter } from './import/store-order-importer';
import { StorePushStore } from './push/store-push-store';
import { StorePushTarget } from './push/store-push-target';
import { STORE_SYNC_INBOX_RETENTION, StoreSyncInboxStore } from './sync/store-sync-inbox-store';
import { StoreSyncQueue } from './sync/store-sync-queue';
import { StoreSyncRecordStore } from './sync/store-sync-record-store';
import { StoreSyncRunner } from './sync/store-sync-runner';
import { StoreSyncScheduler } from './sync/store-sync-scheduler';
import { StoreSyncStateStore } from './sync/store-sync-state-store';
import { StoreWorkflowExecutor } from './sync/store-workflow-executor';
import { StoreWorkflows } from './sync/store-workflows';
import { StorePrivacy } from './webhooks/store-privacy';
import { StoreWebhooks } from './webhooks/store-webhooks';
import { StoreWebhooksController } from './webhooks/store-webhooks.controller';

/**
 * Store sync (README "Store sync"): runs the store workflows that have credentials of their
 * type (WORKFLOW_EXECUTORS), imports orders through the resources' write pipeline, receives
 * store webhooks, and sends tracking back as outbox deliveries (EVENT_DELIVERY_TARGETS).
 */
@Module({
  imports: [
    CredentialsModule,
    WorkflowStoresModule,
    WorkspacesModule,
    TeamsModule,
    NotificationsModule,
    TrackingPagesModule,
    StatusStoreModule,
  ],
  controllers: [StoreWebhooksController],
  providers: [
    StoreSyncStateStore,
    StoreSyncRecordStore,
    StoreSyncInboxStore,
    StorePushStore,
    StoreWorkflows,
    StoreOrderImporter,
    StoreSyncQueue,
    StoreSyncRunner,
    StoreSyncScheduler,
    StorePrivacy,
    StoreWebhooks,
    StoreWorkflowExecutor,
    StorePushTarget,
    { provide: WORKFLOW_EXECUTORS, useExisting: StoreWorkflowExecutor },
    { provide: EVENT_DELIVERY_TARGETS, useExisting: StorePushTarget },
    { provide: RETENTION_RULES, useValue: STORE_SYNC_INBOX_RETENTION },
  ],
  exports: [StoreSyncRunner, StoreSyncScheduler],
})
export class StoreSyncModule {}
