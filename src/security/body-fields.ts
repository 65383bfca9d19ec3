import { isEmail } from 'class-validator';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { typeError } from '../hydra/write/denormalizer';

/** Readers of action bodies (not resources): wrong type 400, missing or invalid 422. */

export function readString(body: Record<string, unknown>, property: string): string | null {
  const value = body[property];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw typeError(property, 'string', value);
  return value;
}

export function requireString(body: Record<string, unknown>, property: string): string {
  const value = readString(body, property);
  if (value === null || value.trim() === '') {
    throw ValidationError.of(property, 'This value should not be blank.', ViolationCodes.notBlank);
  }
  return value;
}

/** A required e-mail address, trimmed. */
export function requireEmail(body: Record<string, unknown>, property = 'email'): string {
  const value = requireString(body, property).trim();
  if (value.length > 180 || !isEmail(value)) {
    throw ValidationError.of(
      property,
      'This value is not a valid email address.',
      ViolationCodes.email,
    );
  }
  return value;
}

export function readBoolean(body: Record<string, unknown>, property: string): boolean | null {
  const value = body[property];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'boolean') throw typeError(property, 'bool', value);
  return value;
}
