import type { AppConfig } from '../config/app-config';
import type { MailMessage } from './mailer';

/** pg-boss queue holding every dispatched mail until it is known to be sent. */
export const MAIL_QUEUE = 'mail.send';

/**
 * What a mail job stores: the whole message sealed (AES-256-GCM with the credentials key),
 * so the job table never holds a recipient, a code or a link in clear.
 */
export interface MailJobData {
  sealed: string;
}

/** The sealing half of CredentialsCipher that mail jobs use. */
export interface MailSealer {
  sealSecrets(secrets: Record<string, string>): string | null;
  openSecrets(sealed: string | null): Record<string, string>;
}

export function sealMail(sealer: MailSealer, message: MailMessage): MailJobData {
  return { sealed: sealer.sealSecrets({ message: JSON.stringify(message) })! };
}

/** The message of a job; throws when it cannot be opened (unknown key, tampered, malformed). */
export function openMail(sealer: MailSealer, data: unknown): MailMessage {
  const sealed = (data as Partial<MailJobData> | null)?.sealed;
  if (typeof sealed !== 'string') throw new Error('not a sealed mail');
  const message = JSON.parse(sealer.openSecrets(sealed).message ?? 'null') as MailMessage | null;
  for (const key of ['to', 'subject', 'text'] as const) {
    if (typeof message?.[key] !== 'string') throw new Error(`sealed mail without ${key}`);
  }
  return message!;
}

/** When and how often the job sends a mail whose immediate attempt did not succeed. */
export interface MailRetryPolicy {
  /** Seconds from dispatch until the job may run (the immediate attempt's head start). */
  startAfterSeconds: number;
  /** Job runs after its first one (pg-boss retryLimit). */
  retryLimit: number;
  /** Seconds before the first retry; pg-boss doubles it each time (with up to 2x jitter). */
  retryDelay: number;
  retryBackoff: true;
}

/**
 * MAIL_MAX_ATTEMPTS counts every attempt: the immediate one, the job's first run and its
 * retries; MAIL_RETRY_DELAY_SECONDS is both the head start and the first retry delay.
 */
export function mailRetryPolicy(
  config: Pick<AppConfig, 'mailRetryDelaySeconds' | 'mailMaxAttempts'>,
): MailRetryPolicy {
  return {
    startAfterSeconds: config.mailRetryDelaySeconds,
    retryLimit: Math.max(0, config.mailMaxAttempts - 2),
    retryDelay: config.mailRetryDelaySeconds,
    retryBackoff: true,
  };
}

/** Whether a failing run of a job is its last (pg-boss marks it failed, no retry follows). */
export function isLastRun(job: { retryCount: number; retryLimit: number }): boolean {
  return job.retryCount >= job.retryLimit;
}

/** Attempts made so far by a run of a job: the immediate one plus the job's runs. */
export function attemptsMade(job: { retryCount: number }): number {
  return job.retryCount + 2;
}
