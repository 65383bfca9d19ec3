import { typeError } from '../hydra/write/denormalizer';

/** Reading values of action inputs beyond their DTO's types (lookups, batches, exports). */

/** A string attribute, trimmed; undefined when absent, null or blank; 400 for other types. */
export function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw typeError(name, 'string', value);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** An array of strings; 400 for anything else. */
export function stringList(value: unknown, attribute: string): string[] {
  if (!Array.isArray(value)) throw typeError(attribute, 'array', value);
  value.forEach((v, i) => {
    if (typeof v !== 'string') throw typeError(`${attribute}[${i}]`, 'string', v);
  });
  return value as string[];
}
