import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer, MailMessage, MailReceipt } from './mailer';
import { receiptOf } from './smtp-transport';

/** Sends over SMTP with nodemailer (`smtp://` or `smtps://` URL, credentials in the URL). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = createTransport(url);
  }

  async send(message: MailMessage): Promise<MailReceipt> {
    return receiptOf(await this.transport.sendMail({ from: this.from, ...message }));
  }

  close(): void {
    this.transport.close();
  }
}
