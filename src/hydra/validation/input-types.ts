import { ValidateBy, type ValidationOptions } from 'class-validator';

/** JSON types an input attribute may have; a value of another type is a 400 (API Platform). */
export type InputType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export const TYPE_CONSTRAINT = 'inputType';

/** Whether `value` has the JSON type. Integers are numbers without a fraction. */
export function hasInputType(type: InputType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

/**
 * The JSON type of an input attribute (null and absent pass: add `NotBlank`/`NotNull` for
 * required ones). `{ each: true }`: an array whose every element has the type. A wrong type
 * answers 400 "The type of the "x" attribute must be "string", "integer" given.", like API
 * Platform's denormalizer; every other constraint answers 422 with the violations.
 */
export const Typed = (type: InputType, options: { each?: boolean } = {}) =>
  ValidateBy(
    {
      name: TYPE_CONSTRAINT,
      constraints: [type, options.each === true],
      validator: {
        validate: (value) =>
          value === null ||
          value === undefined ||
          (options.each
            ? Array.isArray(value) && value.every((v) => hasInputType(type, v))
            : hasInputType(type, value)),
      },
    },
    // Read back by the input reader to word the 400 (never shown as such).
    { message: `${type}${options.each ? '[]' : ''}` } satisfies ValidationOptions,
  );

/** The type a `Typed` constraint declared, from its message. */
export function declaredInputType(message: string): { type: InputType; each: boolean } {
  const each = message.endsWith('[]');
  return { type: (each ? message.slice(0, -2) : message) as InputType, each };
}
