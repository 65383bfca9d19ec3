import type { ResponseDoc } from '../../hydra/actions/action-declaration';
import { Documented } from '../../hydra/validation/documented';

/**
 * The token request of a tracking provider (OAuth 2 client credentials, RFC 6749 4.4), form or
 * JSON. Nothing is checked here: RFC 6749 words its own errors, the adapter judges the client.
 */
export class PushTokenInput {
  @Documented({ type: 'string', description: 'Must be `client_credentials`.', required: true })
  grant_type?: unknown;
  @Documented({
    type: 'string',
    description: 'The client id (the credentials id), when not given with HTTP Basic.',
  })
  client_id?: unknown;
  @Documented({
    type: 'string',
    description:
      'The client secret (the credentials\u2019 `webhookSecret`), when not given with HTTP Basic.',
  })
  client_secret?: unknown;
}

const NO_STORE = {
  'Cache-Control': { description: 'no-store', schema: { type: 'string' } },
  Pragma: { description: 'no-cache', schema: { type: 'string' } },
};

const errorContent = (codes: string[]) => ({
  'application/json': {
    schema: {
      type: 'object',
      required: ['error'],
      properties: { error: { type: 'string', enum: codes } },
    },
  },
});

/** The token endpoint's answers besides the layer's errors: RFC 6749 bodies, never cached. */
export const PUSH_TOKEN_RESPONSES: Record<number, ResponseDoc> = {
  200: { description: 'The token.', headers: NO_STORE },
  400: {
    description: 'A grant other than client_credentials, or unreadable Basic credentials.',
    content: errorContent(['unsupported_grant_type', 'invalid_request']),
  },
  401: {
    description: 'Wrong client id or secret, or credentials without a webhookSecret.',
    content: errorContent(['invalid_client']),
    headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
  },
  429: {
    description:
      'Too many token requests from this address or for this client, or too many wrong client secrets.',
  },
};
