import { Documented } from '../hydra/validation/documented';
import { IMPORT_ENTITIES, type ImportEntity } from './import-fields';

/** One row of the CSV as read. */
export class ImportPreviewRow {
  @Documented({ type: 'integer', required: true, description: 'Its line in the file.' })
  line!: number;
  @Documented({ type: 'object', required: true, description: 'Column -> value.' })
  values!: Record<string, string>;
}

/** A field of the entity a column may fill. */
export class ImportableField {
  @Documented({ type: 'string', required: true }) name!: string;
  @Documented({ type: 'boolean', required: true }) required!: boolean;
}

/** What `POST /imports/pre-upload` read of a CSV (nothing is stored). */
export class ImportPreUpload {
  @Documented({ type: 'string', required: true, description: 'The workspace IRI.' })
  workspace!: string;
  @Documented({ type: 'string', enum: IMPORT_ENTITIES, required: true }) entity!: ImportEntity;
  @Documented({ type: 'string', nullable: true, required: true }) fileOriginalName!: string | null;
  @Documented({ type: 'string', required: true }) fileMimeType!: string;
  @Documented({ type: 'integer', required: true, description: 'Bytes.' }) fileSize!: number;
  @Documented({ type: 'string', required: true }) delimiter!: string;
  @Documented({ type: 'array', items: 'string', required: true }) columns!: string[];
  @Documented({ type: 'integer', required: true }) rowCount!: number;
  @Documented({
    type: 'array',
    of: () => ImportPreviewRow,
    required: true,
    description: 'The first rows.',
  })
  preview!: ImportPreviewRow[];
  @Documented({
    type: 'object',
    required: true,
    description: 'Column -> field it would fill (null: none).',
  })
  suggestedMapping!: Record<string, string | null>;
  @Documented({ type: 'array', of: () => ImportableField, required: true })
  fields!: ImportableField[];
}
