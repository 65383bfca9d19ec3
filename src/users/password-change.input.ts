import { plainToInstance } from 'class-transformer';
import { IsOptional, IsString, MaxLength, validateSync } from 'class-validator';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { typeError } from '../hydra/write/denormalizer';
import { MAX_PASSWORD_LENGTH } from './password-policy';

/** What PUT /users/{id} needs besides `plainPassword` to change a password that is set. */
export class PasswordChangeInput {
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PASSWORD_LENGTH)
  currentPassword?: string | null;
}

/** The body's PasswordChangeInput: 400 when `currentPassword` is no string, 422 when too long. */
export function readPasswordChange(body: Record<string, unknown>): PasswordChangeInput {
  const input = plainToInstance(PasswordChangeInput, {
    currentPassword: body.currentPassword ?? undefined,
  });
  const [error] = validateSync(input);
  if (!error) return input;
  if (error.constraints?.isString)
    throw typeError('currentPassword', 'string', body.currentPassword);
  throw ValidationError.of(
    'currentPassword',
    `This value is too long. It should have ${MAX_PASSWORD_LENGTH} characters or less.`,
    ViolationCodes.tooLong,
  );
}
