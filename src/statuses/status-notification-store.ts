/**
 * The status table's part of e-mail notifications: fragments the shipments' notification
 * store selects with the shipment, so a notification's values stay one statement.
 */

const STATUS_FIELDS = { title: 'title', code: 'code' } as const;

/** SQL of the title or code of the status `statusIdSql` (null without one). */
export function statusFieldSql(field: keyof typeof STATUS_FIELDS, statusIdSql: string): string {
  return `(SELECT st.${STATUS_FIELDS[field]} FROM status st WHERE st.id = ${statusIdSql})`;
}
