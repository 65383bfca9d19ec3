import { Transform } from 'class-transformer';
import { NotBlank } from '../hydra/validation/constraints';
import { Documented } from '../hydra/validation/documented';
import { Typed } from '../hydra/validation/input-types';

/*
 * Bodies of the public account actions. Types are checked here (400); blank, malformed and
 * weak values by the readers of body-fields.ts and the password policy (422), in the order
 * the reference reports them.
 */

/** `POST /security/signup`. */
export class SignupInput {
  @Typed('string') email?: string;
  /** At least the policy's length; `plainPassword` is accepted as an alias. */
  @Typed('string') password?: string;
  @Typed('string') plainPassword?: string;
  /** A team invitation's code: the account is ready at once, signed in. */
  @Typed('string') invitationCode?: string;
  @Typed('string') firstName?: string;
  @Typed('string') lastName?: string;
}

/** `GET /security/verify-email?code=`: the link of the verification e-mail. */
export class VerifyEmailLinkInput {
  @Typed('string') code?: string;
}

/** `POST /security/verify-email`: the mailed code (JSON, or the verification page's form). */
export class VerifyEmailInput {
  @Typed('string')
  @NotBlank()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  code!: string;
}

/** `POST /security/resend-email`, `POST /security/forgot-password/send-email`. */
export class EmailInput {
  @Typed('string') email?: string;
}

/** `POST /security/forgot-password/reset`. */
export class ResetPasswordInput {
  @Typed('string') code?: string;
  @Typed('string') newPassword?: string;
  /** True: the OAuth clients the account made stay (the reset deletes them by default). */
  @Typed('boolean')
  @Documented({
    description:
      'Keep the OAuth clients this account made (default false: the reset deletes them, since whoever held the account may know their secrets). Tokens are revoked either way.',
  })
  keepOAuthClients?: boolean;
}

/** `POST /security/lookup-team-name`: an invitation's address and code. */
export class LookupTeamNameInput {
  @Typed('string') email?: string;
  @Typed('string') code?: string;
}
