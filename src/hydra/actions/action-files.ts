import { ValidationError, ViolationCodes } from '../../common/errors/api-errors';
import type { ActionContext, UploadedFile } from './action-declaration';

/**
 * The file uploaded as the multipart field `field`: 422 when there is none (not null) or it
 * is empty. Handlers that also take the file some other way check `context.files` first.
 */
export function requiredFile(
  context: ActionContext,
  field = 'file',
): UploadedFile & { buffer: Buffer } {
  const file = context.files[field]?.[0];
  if (!file || !file.buffer)
    throw ValidationError.of(field, 'This value should not be null.', ViolationCodes.notNull);
  if (file.buffer.length === 0)
    throw ValidationError.of(field, 'An empty file is not allowed.', ViolationCodes.invalid);
  return file as UploadedFile & { buffer: Buffer };
}
