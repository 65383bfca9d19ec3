/**
 * The user table's part of notes: SQL fragments their declaration selects per row, so that a
 * note's author shows without the notes module naming the table.
 */

/** SQL of the full name ("first last") of the user `userIdSql`, null when it has none. */
export function userFullNameSql(userIdSql: string): string {
  return `(SELECT NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), '') FROM "user" u WHERE u.id = ${userIdSql})`;
}
