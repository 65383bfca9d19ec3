import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { typeError } from '../hydra/write/denormalizer';

/** Shortest password accepted anywhere (sign-up, PUT /users plainPassword, reset). */
export const MIN_PASSWORD_LENGTH = 8;
/** scrypt takes any length; the cap keeps hashing cost bounded. */
export const MAX_PASSWORD_LENGTH = 4096;

/**
 * A new password from a request body: 400 when it is not a string, 422 (at `property`)
 * when too short or too long. `null`/absent answers null (no password).
 */
export function readNewPassword(value: unknown, property: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw typeError(property, 'string', value);
  const length = [...value].length;
  if (length < MIN_PASSWORD_LENGTH) {
    throw ValidationError.of(
      property,
      `This value is too short. It should have ${MIN_PASSWORD_LENGTH} characters or more.`,
      ViolationCodes.tooShort,
    );
  }
  if (length > MAX_PASSWORD_LENGTH) {
    throw ValidationError.of(
      property,
      `This value is too long. It should have ${MAX_PASSWORD_LENGTH} characters or less.`,
      ViolationCodes.tooLong,
    );
  }
  return value;
}
