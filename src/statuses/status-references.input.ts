import { NotBlank, OfType } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';

/**
 * A status reference is checked like the reference service does: blank or not a string is a
 * 422 at its attribute (not a 400), a status the caller cannot see too ("Item not found").
 */
const StatusReference = (): PropertyDecorator => (target, key) => {
  NotBlank()(target, key as string);
  OfType('string')(target, key as string);
};

class InWorkspace {
  /** When given (id or IRI), the statuses must belong to this workspace (422 otherwise). */
  @Typed('string') workspaceId?: string | null;
}

/** `POST /statuses/check-references`. */
export class CheckStatusReferencesInput extends InWorkspace {
  /** Id or IRI of the status. */
  @StatusReference() statusId!: string;
}

/** `POST /statuses/migrate-references`. */
export class MigrateStatusReferencesInput extends InWorkspace {
  /** Id or IRI of the status whose records move. */
  @StatusReference() fromStatusId!: string;
  /** Id or IRI of the status they move to: same workspace and entity, another status. */
  @StatusReference() toStatusId!: string;
}
