import { validate } from 'class-validator';
import { Violation } from '../../common/errors/api-errors';
import type { WriteOperation } from '../core/declaration';
import { cacheValidationMetadata } from './validation-metadata-cache';

// Every write validates through here: the constraints of a class are looked up once.
cacheValidationMetadata();

/** Runs the entity's constraints for one operation and returns violations in Symfony's shape. */
export async function validateEntity(
  entity: object,
  operation: WriteOperation,
): Promise<Violation[]> {
  const errors = await validate(entity, {
    groups: [operation],
    forbidUnknownValues: false,
    skipMissingProperties: false,
  });
  const out: Violation[] = [];
  const walk = (list: typeof errors, prefix: string) => {
    for (const e of list) {
      const path = prefix ? `${prefix}.${e.property}` : e.property;
      for (const [name, message] of Object.entries(e.constraints ?? {})) {
        const code = (e.contexts?.[name] as { code?: string } | undefined)?.code ?? null;
        out.push({ propertyPath: path, message, code });
      }
      if (e.children?.length) walk(e.children, path);
    }
  };
  walk(errors, '');
  return out;
}
