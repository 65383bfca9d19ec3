import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { NotificationsModule } from '../notifications/notifications.module';
import { OrderItemsModule } from '../order-items/order-items.module';
import { OrdersModule } from '../orders/orders.module';
import { ShipmentItemsModule } from '../shipment-items/shipment-items.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { StatusStoreModule } from '../statuses/status-store.module';
import { BatchJob } from './batch-job.entity';
import { BatchJobStore } from './batch-job-store';
import { BatchJobs } from './batch-jobs';
import { BatchOperations } from './batch-operations';
import { BatchesController } from './batches.controller';
import { RETENTION_RULES } from '../retention/retention-rule';
import { BATCH_JOB_RETENTION } from './batch-job-retention-store';

/** GET /batch_jobs, /batch_jobs/{id}: the caller's background batches. */
export class BatchJobsController extends ResourceController(BatchJob) {}

/**
 * change_status_batch (and _async), delete_records_batch. Each kind of record's table is
 * read and written by its owner's store (BATCH_ENTITIES), deletions go through each
 * resource's own rules (its service).
 */
@Module({
  imports: [
    ShipmentsModule,
    OrdersModule,
    OrderItemsModule,
    ShipmentItemsModule,
    StatusStoreModule,
    NotificationsModule,
  ],
  controllers: [BatchesController, BatchJobsController],
  providers: [
    BatchOperations,
    BatchJobs,
    BatchJobStore,
    { provide: RETENTION_RULES, useValue: BATCH_JOB_RETENTION },
  ],
})
export class BatchesModule {}
