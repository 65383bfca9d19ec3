import { pausePoint } from '../common/pause-point';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../access/principal';
import { PrincipalLoader } from '../access/principal-loader';
import { JobQueue } from '../jobs/job-queue';
import { runRecordedJob, type RecordedJob } from '../jobs/recorded-job';
import { NotificationsService } from '../notifications/notifications.service';
import { BATCH_ENTITIES } from './batch-entities';
import { BatchJobStore } from './batch-job-store';
import { BatchOperations } from './batch-operations';
import type { BatchRequest, StatusSpec } from './batch-request';

export const BATCH_QUEUE = 'batches.change_status';
export const CHANGE_STATUS_NOTIFICATION_TAG = 'change_status_batch';
/** Runs of a job that failed for reasons other than its input (database down, crash). */
export const MAX_BATCH_ATTEMPTS = 3;

interface BatchJobMessage {
  batchJobId: string;
}

interface BatchJobRow {
  id: string;
  user_id: string;
  entity: string;
  target_status_id: string | null;
  status_code: string | null;
  workspace_id: string | null;
  record_ids: string[];
  attempts: number;
}

/**
 * change_status_batch_async: the request is checked like the synchronous form, recorded as
 * a `batch_job` row and queued in the same transaction. The worker runs the change and
 * records the outcome in one transaction with the caller's notification, so a crash in
 * between runs the job again and never changes twice or reports twice. It acts with the
 * user's memberships at run time: records the user can no longer see fail the job (404).
 */
@Injectable()
export class BatchJobs {
  private readonly logger = new Logger(BatchJobs.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly principals: PrincipalLoader,
    private readonly operations: BatchOperations,
    private readonly notifications: NotificationsService,
    private readonly store: BatchJobStore,
  ) {
    jobs.declareQueue({ name: BATCH_QUEUE, retryLimit: MAX_BATCH_ATTEMPTS, retryDelay: 5 });
    jobs.work<BatchJobMessage>({
      queue: BATCH_QUEUE,
      handle: async (message) => {
        await this.run(message.batchJobId);
      },
    });
  }

  /** Checks the request, then records and queues it; returns the batch job id. */
  async queueChangeStatus(
    principal: Principal,
    request: BatchRequest,
    spec: StatusSpec,
    workspaceId: string | undefined,
  ): Promise<string> {
    await this.operations.checkChangeStatus(principal, request, spec, workspaceId);
    return this.dataSource.transaction(async (em) => {
      const id = await this.store.queueStatusChange(em, {
        userId: principal.userId,
        entity: request.entity.name,
        statusId: 'id' in spec ? spec.id : null,
        statusCode: 'code' in spec ? spec.code : null,
        workspaceId: workspaceId ?? null,
        recordIds: request.ids,
      });
      await this.jobs.send(BATCH_QUEUE, { batchJobId: id } satisfies BatchJobMessage, {
        runner: em,
      });
      return id;
    });
  }

  /** The job: claim the row, run the change, record and notify; idempotent. */
  async run(batchJobId: string): Promise<void> {
    await runRecordedJob<BatchJobRow>(
      this.dataSource,
      this.logger,
      BATCH_JOB,
      batchJobId,
      async (job) => {
        const request: BatchRequest = { entity: BATCH_ENTITIES[job.entity], ids: job.record_ids };
        const spec: StatusSpec = job.target_status_id
          ? { id: job.target_status_id }
          : { code: job.status_code ?? '' };
        const principal = await this.principals.forUser(job.user_id);
        if (!principal) return; // gone with its user
        await this.dataSource.transaction(async (em) => {
          const result = await this.operations.changeStatus(
            principal,
            request,
            spec,
            job.workspace_id ?? undefined,
            em,
          );
          await this.store.done(em, job.id, result.count, result);
          await this.notifications.notify(
            {
              userId: job.user_id,
              tag: CHANGE_STATUS_NOTIFICATION_TAG,
              message: `Status changed for ${result.count} of ${job.record_ids.length} ${job.entity}${
                result.unchangedIds.length ? `; ${result.unchangedIds.length} already had it` : ''
              }.`,
              data: [
                `/batch_jobs/${job.id}`,
                ...result.ids.map((id) => `/${request.entity.name}/${id}`),
              ],
            },
            em,
          );
          await pausePoint('batch.change.uncommitted');
        });
      },
      (job, reason, em) =>
        this.notifications.notify(
          {
            userId: job.user_id,
            tag: CHANGE_STATUS_NOTIFICATION_TAG,
            message: `The status change of ${job.record_ids.length} ${job.entity} failed; nothing was changed: ${reason}`,
            data: [`/batch_jobs/${job.id}`],
          },
          em,
        ),
    );
  }
}

/**
 * Input that no longer holds (records deleted or no longer visible, status gone) fails for
 * good; anything else is retried a few times.
 */
const BATCH_JOB: RecordedJob = {
  table: 'batch_job',
  columns: 'id, user_id, entity, target_status_id, status_code, workspace_id, record_ids, attempts',
  maxAttempts: MAX_BATCH_ATTEMPTS,
  label: 'batch job',
  unexpectedFailure: 'The batch could not be completed.',
  describe: (error) =>
    error.status === 404 ? 'Some of the records no longer exist.' : error.description,
};
