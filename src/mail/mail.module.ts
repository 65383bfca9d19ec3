import { Global, Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { LogMailer } from './log-mailer';
import { MAILER, type Mailer } from './mailer';
import { SmtpMailer } from './smtp-mailer';

export function mailerFor(config: AppConfig): Mailer {
  return config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom)
    : new LogMailer(config.mailFrom);
}

/** Provides the `MAILER` port everywhere: SMTP when SMTP_URL is set, the log otherwise. */
@Global()
@Module({
  providers: [{ provide: MAILER, inject: [AppConfig], useFactory: mailerFor }],
  exports: [MAILER],
})
export class MailModule implements OnModuleDestroy {
  constructor(@Inject(MAILER) private readonly mailer: Mailer) {}

  onModuleDestroy(): void {
    if (this.mailer instanceof SmtpMailer) this.mailer.close();
  }
}
