import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { NotificationsModule } from '../notifications/notifications.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { BatchJob } from './batch-job.entity';
import { BatchJobs } from './batch-jobs';
import { BatchOperations } from './batch-operations';
import { BatchesController } from './batches.controller';
import { ShipmentMerge } from './shipment-merge';
import { RETENTION_RULES } from '../retention/retention-rule';
import { BATCH_JOB_RETENTION } from './batch-job-retention-store';

/** GET /batch_jobs, /batch_jobs/{id}: the caller's background batches. */
export class BatchJobsController extends ResourceController(BatchJob) {}

/**
 * change_status_batch (and _async), delete_records_batch, shipments/merge. Deletions go
 * through each resource's own rules (its service, found in the application's modules).
 */
@Module({
  imports: [ShipmentsModule, NotificationsModule],
  controllers: [BatchesController, BatchJobsController],
  providers: [
    BatchOperations,
    BatchJobs,
    ShipmentMerge,
    RecordChangeEvents,
    { provide: RETENTION_RULES, useValue: BATCH_JOB_RETENTION },
  ],
})
export class BatchesModule {}
