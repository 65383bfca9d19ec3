import type { UploadedFile } from '../hydra/actions/action-declaration';
import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { decodeCsvText } from './csv-table';

/** A CSV document sent with a request: an uploaded file or text in a body field. */
export interface CsvUpload {
  text: string;
  originalName: string | null;
  mimeType: string;
  size: number;
}

/**
 * The CSV of a request: the multipart file `file` (`ActionContext.files`), else the string body field `textField`
 * (JSON or form). 422 when neither is given or the file is empty; 400 for a non-string field.
 */
export function csvUpload(
  files: Readonly<Record<string, readonly UploadedFile[]>>,
  body: Record<string, unknown>,
  textField: string,
): CsvUpload {
  const file = files.file?.[0];
  const name = body.fileOriginalName;
  if (name !== undefined && name !== null && typeof name !== 'string')
    throw new ApiError(400, 'The type of the "fileOriginalName" attribute must be "string".');
  if (file) {
    const buffer = file.buffer ?? Buffer.alloc(0);
    if (buffer.length === 0)
      throw ValidationError.of('file', 'An empty file is not allowed.', ViolationCodes.invalid);
    return {
      text: decodeOrReject(buffer, 'file'),
      originalName: (name as string | undefined)?.trim() || file.originalname || null,
      mimeType: (file.mimetype || 'text/csv').split(';')[0].trim().toLowerCase() || 'text/csv',
      size: buffer.length,
    };
  }
  const text = body[textField];
  if (text === undefined || text === null || text === '')
    throw ValidationError.of(
      textField,
      `This value should not be blank: send the CSV as "${textField}" or as the multipart file "file".`,
      ViolationCodes.notBlank,
    );
  if (typeof text !== 'string')
    throw new ApiError(400, `The type of the "${textField}" attribute must be "string".`);
  return {
    text: text.replace(/^\uFEFF/, ''),
    originalName: (name as string | undefined)?.trim() || null,
    mimeType: 'text/csv',
    size: Buffer.byteLength(text),
  };
}

function decodeOrReject(data: Buffer, field: string): string {
  try {
    return decodeCsvText(data);
  } catch (error) {
    throw ValidationError.of(field, (error as Error).message, ViolationCodes.invalid);
  }
}
