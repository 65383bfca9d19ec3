/**
 * SQL of a user's photo path (the media's `filePath`) for the user whose id is `userIdSql`,
 * null without one: the reference's `userPhoto` (notes) and `memberPhoto` (team members).
 */
export function userPhotoSql(userIdSql: string): string {
  return `(SELECT m.file_path FROM "user" u JOIN media m ON m.id = u.photo_id WHERE u.id = ${userIdSql})`;
}
