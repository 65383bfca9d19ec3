import { OAuthToken } from '../auth/oauth.output';
import type { ApiRecord } from '../hydra/core/api-record';
import { Documented } from '../hydra/validation/documented';
import { User } from '../users/user.entity';

/** An account created: signed in at once (an invitation), or waiting for its e-mail's code. */
export class SignupResponse {
  @Documented({
    of: () => User,
    required: true,
    description: 'Waiting: only `email` and `emailVerified`.',
  })
  user!: ApiRecord;
  @Documented({
    of: () => OAuthToken,
    nullable: true,
    required: true,
    description: 'Null while the address waits for verification.',
  })
  token!: OAuthToken | null;
  @Documented({ type: 'string', description: 'What to do next, while waiting.' }) message?: string;
}

/** A verified account, signed in. */
export class SignedIn {
  @Documented({ of: () => User, required: true }) user!: ApiRecord;
  @Documented({ of: () => OAuthToken, required: true }) token!: OAuthToken;
}

/** The address a request was about (the same answer whether it has an account or not). */
export class EmailEcho {
  @Documented({ type: 'string', required: true }) email!: string;
}

/** The team an invitation joins. */
export class InvitationTeamName {
  @Documented({ type: 'string', required: true }) email!: string;
  @Documented({ type: 'string', required: true }) code!: string;
  @Documented({ type: 'string', required: true }) teamName!: string;
}
