import { Logger } from '@nestjs/common';
import type { Mailer, MailMessage } from './mailer';

/** Development without SMTP: each mail is written to the log, so codes and links are at hand. */
export class LogMailer implements Mailer {
  private readonly logger = new Logger('Mail');

  constructor(private readonly from: string) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.log(
      `Mail (SMTP_URL unset, not sent) from ${this.from} to ${message.to}` +
        (message.cc?.length ? ` cc ${message.cc.join(', ')}` : '') +
        (message.bcc?.length ? ` bcc ${message.bcc.join(', ')}` : '') +
        `: ${message.subject}\n${message.text}`,
    );
  }
}
