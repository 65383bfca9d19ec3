import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type PgBoss from 'pg-boss';
import { AppConfig } from '../config/app-config';
import { CredentialsCipher } from '../credentials/credentials-cipher';
import { JobQueue } from '../jobs/job-queue';
import {
  attemptsMade,
  isLastRun,
  MAIL_QUEUE,
  mailRetryPolicy,
  openMail,
  sealMail,
  type MailJobData,
  type MailRetryPolicy,
} from './mail-job';
import { MAILER, type Mailer, type MailMessage } from './mailer';
import { SmtpMailer } from './smtp-mailer';

/**
 * Sends account e-mails without making the caller wait, and without losing them.
 *
 * `dispatch` returns at once: the caller's answer never waits for the database or the SMTP
 * round trip, so its timing never tells whether an address has an account (callers dispatch
 * the same way whatever the address). In the background, the message is first recorded as a
 * `mail.send` job (sealed with the credentials key: the job table never holds a code or link
 * in clear) that may only start MAIL_RETRY_DELAY_SECONDS later, then sent at once; when that
 * send succeeds the job is deleted. When it fails, or the process dies first, the job sends
 * the mail on any node with job workers, retried with exponential backoff until
 * MAIL_MAX_ATTEMPTS; the last failure is logged at error level with the job id.
 *
 * Delivery is at least once, not exactly once: a mail may arrive twice when the immediate
 * send outlasts the head start on another node's clock (slow SMTP), when the deletion fails
 * after a successful send, or when SMTP accepted a message but the connection broke before
 * it said so. A job reaching this node's worker while this node's own attempt is still in
 * flight waits for that attempt instead of sending again. If the job cannot be recorded
 * (database unreachable) the mail is still sent once, without retries.
 *
 * Shutdown: attempts in flight are awaited (and their jobs deleted) before the job queue
 * stops, then SMTP closes.
 */
@Injectable()
export class MailDispatcher implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly inFlight = new Set<Promise<void>>();
  /** Immediate attempts of this node by job id: resolves true once the mail was sent. */
  private readonly attempts = new Map<string, Promise<boolean>>();
  private readonly policy: MailRetryPolicy;

  constructor(
    @Inject(MAILER) private readonly mailer: Mailer,
    private readonly jobs: JobQueue,
    private readonly cipher: CredentialsCipher,
    config: AppConfig,
  ) {
    this.policy = mailRetryPolicy(config);
    jobs.declareQueue({
      name: MAIL_QUEUE,
      retryLimit: this.policy.retryLimit,
      retryDelay: this.policy.retryDelay,
      retryBackoff: this.policy.retryBackoff,
    });
    jobs.work<MailJobData>({
      queue: MAIL_QUEUE,
      includeMetadata: true,
      handle: (data, job) => this.runJob(data, job as PgBoss.JobWithMetadata<MailJobData>),
    });
    jobs.beforeStop(() => this.drain());
  }

  dispatch(message: MailMessage): void {
    const sending = this.deliver(message)
      .catch((error: unknown) =>
        this.logger.error(`Sending "${message.subject}" failed: ${describe(error)}`),
      )
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drain();
    if (this.mailer instanceof SmtpMailer) this.mailer.close();
  }

  /** Waits for every immediate attempt in flight (including ones started meanwhile). */
  private async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async deliver(message: MailMessage): Promise<void> {
    let jobId: string | null = null;
    try {
      jobId = await this.jobs.send(MAIL_QUEUE, sealMail(this.cipher, message), {
        startAfter: this.policy.startAfterSeconds,
        retryLimit: this.policy.retryLimit,
        retryDelay: this.policy.retryDelay,
        retryBackoff: this.policy.retryBackoff,
      });
    } catch (error) {
      this.logger.error(
        `Recording "${message.subject}" as a job failed, sending it once without retries: ${describe(error)}`,
      );
    }
    const attempt = this.mailer.send(message).then(
      () => true,
      (error: unknown) => {
        this.logger.warn(
          jobId
            ? `Sending "${message.subject}" failed, mail job ${jobId} sends it ${this.policy.startAfterSeconds} s after dispatch: ${describe(error)}`
            : `Sending "${message.subject}" failed: ${describe(error)}`,
        );
        return false;
      },
    );
    if (!jobId) {
      await attempt;
      return;
    }
    this.attempts.set(jobId, attempt);
    try {
      if (await attempt) await this.jobs.deleteJob(MAIL_QUEUE, jobId);
    } catch (error) {
      this.logger.warn(
        `"${message.subject}" was sent but mail job ${jobId} could not be deleted; it may be sent again: ${describe(error)}`,
      );
    } finally {
      this.attempts.delete(jobId);
    }
  }

  private async runJob(data: MailJobData, job: PgBoss.JobWithMetadata<MailJobData>): Promise<void> {
    const ownAttempt = this.attempts.get(job.id);
    if (ownAttempt && (await ownAttempt)) return;
    let message: MailMessage;
    try {
      message = openMail(this.cipher, data);
    } catch (error) {
      // No retry can open it (e.g. sealed with a key no longer configured).
      this.logger.error(`Mail job ${job.id} cannot be opened, given up: ${describe(error)}`);
      return;
    }
    try {
      await this.mailer.send(message);
    } catch (error) {
      const what = `Mail job ${job.id} ("${message.subject}") failed (attempt ${attemptsMade(job)})`;
      if (isLastRun(job)) {
        this.logger.error(`${what}, given up: ${describe(error)}`);
      } else {
        this.logger.warn(`${what}, retried later: ${describe(error)}`);
      }
      throw error;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
