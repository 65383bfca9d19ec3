import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { WebhookDelivery } from './webhook-delivery';
import { WebhookSender } from './webhook-sender';

/** Signed webhook requests to public addresses, each attempt recorded as a workflow run. */
@Module({
  imports: [CredentialsModule],
  providers: [WebhookSender, WebhookDelivery],
  exports: [WebhookSender, WebhookDelivery],
})
export class WebhooksModule {}
