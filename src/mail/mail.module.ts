import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { CredentialsModule } from '../credentials/credentials.module';
import { LogMailer } from './log-mailer';
import { MailDispatcher } from './mail-dispatcher';
import { MAILER, type Mailer } from './mailer';
import { SmtpMailer } from './smtp-mailer';

export function mailerFor(config: AppConfig): Mailer {
  return config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom)
    : new LogMailer(config.mailFrom);
}

/**
 * Provides the `MAILER` port everywhere (SMTP when SMTP_URL is set, the log otherwise) and
 * the `MailDispatcher` that sends in the background, backed by sealed `mail.send` jobs.
 */
@Global()
@Module({
  imports: [CredentialsModule],
  providers: [{ provide: MAILER, inject: [AppConfig], useFactory: mailerFor }, MailDispatcher],
  exports: [MAILER, MailDispatcher],
})
export class MailModule {}
