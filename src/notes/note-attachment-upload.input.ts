import { Typed } from '../hydra/validation/input-types';

/**
 * `POST /notes/{id}/attachments`: an already uploaded file as `media`, or (multipart) the
 * file `file` uploaded with the request.
 */
export class NoteAttachmentUploadInput {
  /** IRI of a media of the note's workspace (`/media/<id>`). */
  @Typed('string') media?: string | null;
}
