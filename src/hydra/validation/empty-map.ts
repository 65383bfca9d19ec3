import { getMetadataStorage } from 'class-validator';
import { TYPE_CONSTRAINT } from './input-types';

/**
 * PHP's json_encode writes an empty associative array (an empty map) as `[]`, so clients
 * written in PHP (the reference's SDK and store plugins) send `[]` wherever an object is
 * empty (`productOptions: []`). Where an object is expected, an empty array means `{}`; a
 * non-empty array stays a type error.
 */
export function isEmptyPhpMap(value: unknown): value is [] {
  return Array.isArray(value) && value.length === 0;
}

/** `value`, or `{}` for an empty array. */
export function asObjectInput(value: unknown): unknown {
  return isEmptyPhpMap(value) ? {} : value;
}

/**
 * Replaces, in a DTO instance and the DTO instances it holds, each empty array given for a
 * property declared `Typed('object')` by `{}`, before validation.
 */
export function emptyArraysAsObjects(instance: unknown, seen = new Set<object>()): void {
  if (instance === null || typeof instance !== 'object' || seen.has(instance)) return;
  seen.add(instance);
  if (Array.isArray(instance)) {
    for (const element of instance) emptyArraysAsObjects(element, seen);
    return;
  }
  const target = instance.constructor;
  if (target === Object) return;
  const record = instance as Record<string, unknown>;
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  for (const meta of metadatas) {
    const [type, each] = (meta.constraints ?? []) as [unknown, unknown];
    if (meta.name === TYPE_CONSTRAINT && type === 'object' && each !== true) {
      record[meta.propertyName] = asObjectInput(record[meta.propertyName]);
    }
  }
  for (const value of Object.values(record)) emptyArraysAsObjects(value, seen);
}
