import { Documented } from '../hydra/validation/documented';
import { Typed } from '../hydra/validation/input-types';

/** The form fields of `POST /media` (the file itself is the multipart part `file`). */
export class MediaUploadInput {
  /** Id or IRI of a workspace the caller may write: the media belongs to it at once. */
  @Typed('string') workspace?: string | null;
  /** The name to keep instead of the uploaded file's own. */
  @Typed('string') fileOriginalName?: string | null;
  /** The file itself: the multipart part `file`, which `uploadedFile` reads (422 without it). */
  @Documented({
    type: 'string',
    format: 'binary',
    required: true,
    description: 'The file: the part `file` of the multipart body.',
  })
  file?: unknown;
}
