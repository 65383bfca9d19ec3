import { Documented } from '../hydra/validation/documented';

/** An access token as the token endpoint answers it (RFC 6749 5.1, and the user it acts for). */
export class OAuthToken {
  @Documented({ type: 'string', required: true, description: 'The bearer token for the API.' })
  access_token!: string;
  @Documented({
    type: 'integer',
    required: true,
    description: 'Seconds until the access token expires.',
  })
  expires_in!: number;
  @Documented({ type: 'string', enum: ['bearer'], required: true }) token_type!: 'bearer';
  @Documented({ type: 'string', nullable: true, description: 'The granted scopes.' })
  scope!: string | null;
  @Documented({
    type: 'string',
    description: 'Given for `authorization_code` and `refresh_token` grants.',
  })
  refresh_token?: string | null;
  @Documented({
    type: 'string',
    format: 'uuid',
    required: true,
    description: 'The user the token acts for.',
  })
  user_id!: string;
  @Documented({ type: 'string', format: 'email', required: true }) user_email!: string;
}
