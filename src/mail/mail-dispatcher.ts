import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { MAILER, type Mailer, type MailMessage } from './mailer';
import { SmtpMailer } from './smtp-mailer';

/**
 * Sends without making the caller wait for the SMTP round trip: account e-mails go out
 * after the answer, so an answer's timing never tells whether an address has an account.
 * Failures are logged; sends still in flight are awaited at shutdown, then SMTP closes.
 */
@Injectable()
export class MailDispatcher implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly inFlight = new Set<Promise<void>>();

  constructor(@Inject(MAILER) private readonly mailer: Mailer) {}

  dispatch(message: MailMessage): void {
    const sending = this.mailer
      .send(message)
      .catch((error: unknown) =>
        this.logger.error(
          `Sending "${message.subject}" failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.inFlight]);
    if (this.mailer instanceof SmtpMailer) this.mailer.close();
  }
}
