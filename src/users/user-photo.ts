import { joinMediaSql, mediaFilePathSql } from '../media/media-path-sql';

/**
 * SQL of a user's photo path (the media's `filePath`) for the user whose id is `userIdSql`,
 * null without one: the reference's `userPhoto` (notes) and `memberPhoto` (team members).
 */
export function userPhotoSql(userIdSql: string): string {
  return `(SELECT ${mediaFilePathSql('m')} FROM "user" u ${joinMediaSql('m', 'u.photo_id')} WHERE u.id = ${userIdSql})`;
}
