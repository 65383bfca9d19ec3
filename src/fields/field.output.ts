import { Documented } from '../hydra/validation/documented';

/** The choices of a select field: a list, or a source to read them from. */
export class SelectOptionsOutput {
  @Documented({ type: 'string', nullable: true, required: true }) keyField!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) titleField!: string | null;
  @Documented({ type: 'array', items: 'string', nullable: true, required: true }) options!:
    string[] | null;
  @Documented({ type: 'string', nullable: true, required: true }) url!: string | null;
}
