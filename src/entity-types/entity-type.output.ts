import { Documented } from '../hydra/validation/documented';

/** An entity that carries custom fields, with its field layout (the reference's EntityType). */
export class EntityTypeOutput {
  @Documented({ type: 'string', required: true, description: '`orders`, `shipments`…' })
  id!: string;
  @Documented({ type: 'string', required: true }) entity!: string;
  @Documented({ type: 'string', nullable: true, required: true }) type!: string | null;
  @Documented({ type: 'array', items: 'string', required: true }) tags!: string[];
  @Documented({ type: 'string', required: true }) title!: string;
  @Documented({
    type: 'array',
    items: 'string',
    required: true,
    description: 'Field codes, in order.',
  })
  fieldsLayout!: string[];
  @Documented({ type: 'boolean', required: true }) placeholder!: boolean;
  @Documented({ type: 'string', nullable: true, required: true }) placeholderTemplate!:
    string | null;
}
