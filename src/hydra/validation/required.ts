import { getMetadataStorage } from 'class-validator';
import type { WriteOperation } from '../core/declaration';

/** Constraints that refuse an absent value (`NotBlank`, `NotNull`, `Present`). */
export const REQUIRING_CONSTRAINTS: ReadonlySet<string> = new Set(['notBlank', 'notNull']);

/**
 * The properties of a resource class that a write refuses to leave out: those carrying a
 * requiring constraint in the operation's validation group, read from the very metadata
 * `validateEntity` runs (always off, groups `[operation]`), so what the docs call required
 * (`hydra:required`, OpenAPI `required`) is what the server answers 422 for.
 */
export function requiredOn(target: Function, operation: WriteOperation): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(target, '', false, false, [
    operation,
  ]);
  return [
    ...new Set(
      metadata.filter((m) => REQUIRING_CONSTRAINTS.has(m.name ?? '')).map((m) => m.propertyName),
    ),
  ];
}
