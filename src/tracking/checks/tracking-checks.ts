import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import { NotificationsService } from '../../notifications/notifications.service';
import { TrackingService, type TrackReport } from '../tracking-service/tracking.service';

export const CHECK_QUEUE = 'tracking.check';
export const CHECK_NOTIFICATION_TAG = 'check_tracking_numbers';

interface CheckJob {
  userId: string;
  ids: string[];
}

/** Checks on demand: now (within the request) or later (a job, then a notification). */
@Injectable()
export class TrackingChecks {
  constructor(
    private readonly tracking: TrackingService,
    private readonly jobs: JobQueue,
    private readonly notifications: NotificationsService,
    private readonly config: AppConfig,
  ) {
    jobs.declareQueue({ name: CHECK_QUEUE, retryLimit: 3, retryDelay: 10 });
    jobs.work<CheckJob>({
      queue: CHECK_QUEUE,
      handle: async (job) => {
        await this.runCheck(job);
      },
    });
  }

  /** Re-tracks now; each provider gets the synchronous timeout of a request. */
  checkNow(ids: string[]): Promise<TrackReport> {
    return this.tracking.trackMany(ids, { timeoutMs: this.config.trackingSyncTimeoutMs });
  }

  /** Queues the check; returns the job id. */
  async checkLater(userId: string, ids: string[]): Promise<string | null> {
    return this.jobs.send(CHECK_QUEUE, { userId, ids } satisfies CheckJob);
  }

  /** The job: re-track, then tell the user what happened. */
  async runCheck(job: CheckJob): Promise<string> {
    const report = await this.tracking.trackMany(job.ids);
    const checked = report.outcomes.filter((o) => o.applied).length;
    const changed = report.outcomes.filter((o) => o.statusChanged).length;
    const failed = report.failures.length;
    const parts = [
      `Tracking checked for ${checked} of ${job.ids.length} shipment${job.ids.length === 1 ? '' : 's'}`,
      `${changed} changed status`,
    ];
    if (failed > 0) parts.push(`${failed} could not be checked and will be retried`);
    return this.notifications.notify({
      userId: job.userId,
      tag: CHECK_NOTIFICATION_TAG,
      message: `${parts.join('; ')}.`,
      data: job.ids.map((id) => `/shipments/${id}`),
    });
  }
}
