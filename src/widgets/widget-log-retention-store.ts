import { notesOfDeletedRows } from '../notes/note-sweep-store';
import { retentionStatements } from '../retention/retention-rule';

/** Widget logs go RETENTION_DAYS_WIDGET_LOGS after their creation, with the notes on them. */
export const WIDGET_LOG_RETENTION = retentionStatements({
  table: 'widget_log',
  category: 'widgetLogs',
  where: 'x.created_at < $1',
  notes: notesOfDeletedRows('widget_logs'),
});
