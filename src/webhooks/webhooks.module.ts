import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { RecordChangeEvents } from '../events/record-change-events';
import { WorkflowStoresModule } from '../workflows/workflow-stores.module';
import { WebhookDelivery } from './webhook-delivery';
import { WebhookSender } from './webhook-sender';

/** Signed webhook requests to public addresses, each attempt recorded as a workflow run. */
@Module({
  imports: [CredentialsModule, WorkflowStoresModule],
  providers: [WebhookSender, WebhookDelivery, RecordChangeEvents],
  exports: [WebhookSender, WebhookDelivery],
})
export class WebhooksModule {}
