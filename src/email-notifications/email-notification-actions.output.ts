import type { ApiRecord } from '../hydra/core/api-record';
import { Documented } from '../hydra/validation/documented';
import { EmailNotification } from './email-notification.entity';

/** A notification rendered with a shipment's (or sample) values. */
export class EmailNotificationPreview {
  @Documented({ type: 'string', required: true }) subject!: string;
  @Documented({ type: 'string', required: true }) html!: string;
  @Documented({ type: 'string', required: true, description: 'The plain-text part.' })
  text!: string;
}

/** A test e-mail sent. */
export class EmailNotificationSendTest {
  @Documented({ type: 'boolean', required: true, description: 'Always true: a refusal is a 502.' })
  sent!: boolean;
  @Documented({ type: 'string', format: 'email', required: true }) to!: string;
  @Documented({ type: 'string', required: true }) subject!: string;
}

/** A workspace's system notifications, back to the defaults. */
export class EmailNotificationResetDefaults {
  @Documented({ type: 'string', required: true, description: 'The workspace IRI.' })
  workspace!: string;
  @Documented({ type: 'array', of: () => EmailNotification, required: true })
  emailNotifications!: ApiRecord[];
}
