import { ValidateBy, ValidationOptions, getMetadataStorage, isEmail } from 'class-validator';
import { ViolationCodes } from '../../common/errors/api-errors';
import type { WriteOperation } from '../core/declaration';
import { hasInputType, type InputType } from './input-types';

/**
 * Constraint decorators with Symfony's messages and codes (clients of the
 * original service match on them). Each runs on the operations given in
 * `on` (default: both POST and PUT).
 */
interface On {
  on?: WriteOperation[];
  message?: string;
  /** Another Symfony code than the constraint's (an `Assert` that reports a blank value). */
  code?: string;
}

function options(code: string, message: string, on?: On): ValidationOptions {
  return {
    groups: on?.on ?? ['post', 'put'],
    message: on?.message ?? message,
    context: { code: on?.code ?? code },
  };
}

const isBlank = (v: unknown) =>
  v === null || v === undefined || v === '' || v === false || (Array.isArray(v) && v.length === 0);

export const NotBlank = (on?: On) =>
  ValidateBy(
    { name: 'notBlank', validator: { validate: (v) => !isBlank(v) } },
    options(ViolationCodes.notBlank, 'This value should not be blank.', on),
  );

export const NotNull = (on?: On) =>
  ValidateBy(
    { name: 'notNull', validator: { validate: (v) => v !== null && v !== undefined } },
    options(ViolationCodes.notNull, 'This value should not be null.', on),
  );

export const MaxLength = (max: number, on?: On) =>
  ValidateBy(
    {
      name: 'maxLength',
      validator: { validate: (v) => v == null || typeof v !== 'string' || [...v].length <= max },
    },
    options(
      ViolationCodes.tooLong,
      `This value is too long. It should have ${max} characters or less.`,
      on,
    ),
  );

export const MinLength = (min: number, on?: On) =>
  ValidateBy(
    {
      name: 'minLength',
      validator: { validate: (v) => v == null || typeof v !== 'string' || [...v].length >= min },
    },
    options(
      ViolationCodes.tooShort,
      `This value is too short. It should have ${min} characters or more.`,
      on,
    ),
  );

export const Email = (on?: On) =>
  ValidateBy(
    {
      name: 'email',
      validator: {
        validate: (v) => v == null || v === '' || (typeof v === 'string' && isEmail(v)),
      },
    },
    options(ViolationCodes.email, 'This value is not a valid email address.', on),
  );

export const Regex = (pattern: RegExp, on?: On) =>
  ValidateBy(
    {
      name: 'regex',
      validator: { validate: (v) => v == null || (typeof v === 'string' && pattern.test(v)) },
    },
    options(ViolationCodes.regex, 'This value is not valid.', on),
  );

export const Choice = (choices: readonly unknown[], on?: On) =>
  ValidateBy(
    {
      name: 'choice',
      // Kept as the constraint's argument so tools can read the allowed values (choicesOf).
      constraints: [choices],
      validator: { validate: (v) => v == null || choices.includes(v) },
    },
    options(ViolationCodes.choice, 'The value you selected is not a valid choice.', on),
  );

export const EachChoice = (choices: readonly unknown[], on?: On) =>
  ValidateBy(
    {
      name: 'eachChoice',
      validator: {
        validate: (v) => v == null || (Array.isArray(v) && v.every((x) => choices.includes(x))),
      },
    },
    options(ViolationCodes.choice, 'One or more of the given values is invalid.', on),
  );

export const GreaterThanOrEqual = (min: number, on?: On) =>
  ValidateBy(
    { name: 'gte', validator: { validate: (v) => v == null || Number(v) >= min } },
    options(
      ViolationCodes.greaterThanOrEqual,
      `This value should be greater than or equal to ${min}.`,
      on,
    ),
  );

export const LessThanOrEqual = (max: number, on?: On) =>
  ValidateBy(
    { name: 'lte', validator: { validate: (v) => v == null || Number(v) <= max } },
    options(
      ViolationCodes.lessThanOrEqual,
      `This value should be less than or equal to ${max}.`,
      on,
    ),
  );

/** A rule that needs the whole object; `test` returns true when valid. */
export const Assert = (
  name: string,
  test: (value: unknown, object: any) => boolean,
  message: string,
  on?: On,
) =>
  ValidateBy(
    { name, validator: { validate: (v, args) => test(v, args?.object) } },
    options(ViolationCodes.invalid, message, on),
  );

/** The values a `@Choice` property allows, or undefined when it has none. */
export function choicesOf(target: Function, property: string): readonly unknown[] | undefined {
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .find((m) => m.propertyName === property && m.name === 'choice');
  return metadata?.constraints?.[0] as readonly unknown[] | undefined;
}

/** A collection's least size (Symfony's Count min): 422 with fewer elements. */
export const MinCount = (min: number, on?: On) =>
  ValidateBy(
    { name: 'minCount', validator: { validate: (v) => !Array.isArray(v) || v.length >= min } },
    options(
      ViolationCodes.tooShort,
      `This collection should contain ${min} element${min === 1 ? '' : 's'} or more.`,
      on,
    ),
  );

/** A collection's largest size (Symfony's Count max): 422 with more elements. */
export const MaxCount = (max: number, on?: On) =>
  ValidateBy(
    { name: 'maxCount', validator: { validate: (v) => !Array.isArray(v) || v.length <= max } },
    options(ViolationCodes.tooLong, `This collection should contain ${max} elements or less.`, on),
  );

/** Given and not null (an empty list or string passes: `MinCount`/`NotBlank` judge those). */
export const Present = (on?: On) =>
  ValidateBy(
    { name: 'notNull', validator: { validate: (v) => v !== null && v !== undefined } },
    options(ViolationCodes.notBlank, 'This value should not be blank.', on),
  );

/**
 * Symfony's Type constraint: a value of another JSON type is a 422 violation "This value
 * should be of type string." (where the reference answers so rather than with a 400).
 */
export const OfType = (type: InputType, on?: On) =>
  ValidateBy(
    {
      name: 'ofType',
      constraints: [type],
      validator: { validate: (v) => v === null || v === undefined || hasInputType(type, v) },
    },
    options(ViolationCodes.invalid, `This value should be of type ${type}.`, on),
  );
