import { Transform } from 'class-transformer';
import { Allow } from 'class-validator';
import { Choice, NotBlank } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';
import { IMPORT_ENTITIES } from './import-fields';

/**
 * `POST /imports/pre-upload` and `POST /imports`, as JSON or a multipart form: the CSV as the
 * file `file` (`ActionContext.files`) or the text `content`.
 */
export class ImportInput {
  /** Id or IRI of the workspace the rows go to. */
  @Typed('string') @NotBlank() workspace!: string;
  /** `shipments` or `orders`; guessed from the columns when left out. */
  @Choice(IMPORT_ENTITIES)
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  entity?: string | null;
  /** The CSV text, when no file is uploaded. */
  @Typed('string') content?: string | null;
  /** The file's name as the user knows it. */
  @Typed('string') fileOriginalName?: string | null;
  /**
   * `{column: field}` (JSON text in a multipart form; `POST /imports` only); default: the
   * suggested mapping.
   */
  @Allow() mapping?: Record<string, unknown> | string | null;
}
