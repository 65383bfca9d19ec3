import { plainToInstance } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength, validateSync } from 'class-validator';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { typeError } from '../hydra/write/denormalizer';
import { MAX_PASSWORD_LENGTH } from './password-policy';

/** What PUT /users/{id} reads besides `plainPassword` to change a password that is set. */
export class PasswordChangeInput {
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PASSWORD_LENGTH)
  currentPassword?: string | null;

  /** The OAuth clients the account made stay (the change deletes them by default). */
  @IsOptional()
  @IsBoolean()
  keepOAuthClients?: boolean | null;
}

/**
 * The body's PasswordChangeInput: 400 when `currentPassword` is no string or
 * `keepOAuthClients` no boolean, 422 when the password is too long.
 */
export function readPasswordChange(body: Record<string, unknown>): PasswordChangeInput {
  const input = plainToInstance(PasswordChangeInput, {
    currentPassword: body.currentPassword ?? undefined,
    keepOAuthClients: body.keepOAuthClients ?? undefined,
  });
  for (const error of validateSync(input)) {
    if (error.property === 'keepOAuthClients')
      throw typeError('keepOAuthClients', 'bool', body.keepOAuthClients);
    if (error.constraints?.isString)
      throw typeError('currentPassword', 'string', body.currentPassword);
    throw ValidationError.of(
      'currentPassword',
      `This value is too long. It should have ${MAX_PASSWORD_LENGTH} characters or less.`,
      ViolationCodes.tooLong,
    );
  }
  return input;
}
