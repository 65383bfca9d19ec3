import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../jobs/job-queue';
import type { SqlRunner } from '../../database/query';

export const STORE_SYNC_QUEUE = 'store-sync.run';

/** Why a run was asked for. */
export type RunTrigger = 'period' | 'execute' | 'webhook' | 'continue';

export interface StoreSyncJob {
  workflowId: string;
  trigger: RunTrigger;
}

/**
 * Queues store sync runs as durable jobs (pg-boss): whichever node works jobs takes them, a
 * job lost with its node is retried, and the workflow's lease keeps one run at a time.
 */
@Injectable()
export class StoreSyncQueue {
  constructor(private readonly jobs: JobQueue) {
    jobs.declareQueue({
      name: STORE_SYNC_QUEUE,
      retryLimit: 3,
      retryDelay: 30,
      retryBackoff: true,
      // A backfill of a big store takes long; a lost job is retried after this.
      expireInSeconds: 6 * 3600,
    });
  }

  /** A run of the workflow soon (in `runner`'s transaction when given), or after `delayMs`. */
  async request(
    workflowId: string,
    trigger: RunTrigger,
    options: { runner?: SqlRunner; delayMs?: number } = {},
  ): Promise<void> {
    await this.jobs.send(STORE_SYNC_QUEUE, { workflowId, trigger } satisfies StoreSyncJob, {
      runner: options.runner,
      startAfter: options.delayMs ? new Date(Date.now() + options.delayMs) : undefined,
    });
  }
}
