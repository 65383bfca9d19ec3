import { retentionStatements } from '../retention/retention-rule';

/** Read notifications go RETENTION_DAYS_NOTIFICATIONS after they were read; unread ones stay. */
export const NOTIFICATION_RETENTION = retentionStatements({
  table: 'notification',
  category: 'notifications',
  where: 'NOT x.unread AND x.read_at < $1',
});
