/**
 * SQL over the media table for other modules' statements (a user's photo path): the table and
 * its columns stay named in this module.
 */

/** Joins the media row `mediaId` (an SQL expression) as `alias`. */
export function joinMediaSql(alias: string, mediaId: string): string {
  return `JOIN media ${alias} ON ${alias}.id = ${mediaId}`;
}

/** The public path (`filePath`) of the media joined as `alias`. */
export function mediaFilePathSql(alias: string): string {
  return `${alias}.file_path`;
}
