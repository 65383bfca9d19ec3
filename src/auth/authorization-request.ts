import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isStorableText } from '../hydra/core/identifiers';
import { AppConfig } from '../config/app-config';
import { OauthClientStore } from '../oauth-clients/oauth-client-store';
import { firstPartyRedirectUris } from './first-party-client';

/** Parameters of the authorization request carried through the login form. */
export const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
] as const;

export interface ClientView {
  name: string;
  redirectUris: string[];
}

export type CheckedRequest = { client: ClientView; redirectUri: string } | { error: string };

/** The authorization request's parameters that were given as non-empty strings. */
export function authorizationParams(source: object): Record<string, string> {
  const values = source as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const name of AUTHORIZE_PARAMS) {
    const v = values[name];
    if (typeof v === 'string' && v !== '') out[name] = v;
  }
  return out;
}

/**
 * The checks of an authorization request made before anyone signs in: a known client and a
 * redirect URI registered exactly (without one, the client's only registered one); for the
 * first-party console, `/admin/` on the origin the request came to (or PUBLIC_URL's). Failures
 * are shown on an error page, never sent to a redirect URI (RFC 9700 4.11.2).
 */
@Injectable()
export class AuthorizationRequests {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clients: OauthClientStore,
    private readonly config: AppConfig,
  ) {}

  /** `origin`: the request's `scheme://host`, as TRUST_PROXY lets it be read. */
  async check(params: Record<string, string>, origin: string): Promise<CheckedRequest> {
    if (!params.client_id) return { error: 'Missing parameter: client_id.' };
    // No stored public id holds a NUL (and PostgreSQL refuses to compare one).
    if (!isStorableText(params.client_id)) return { error: 'Unknown client.' };
    const row = await this.clients.byPublicId(this.dataSource, params.client_id);
    if (!row) return { error: 'Unknown client.' };
    // A public client proves the code is its own with PKCE only (RFC 9700 2.1.1): S256.
    if (row.first_party && (!params.code_challenge || params.code_challenge_method !== 'S256'))
      return {
        error: 'This client must use PKCE (code_challenge with code_challenge_method=S256).',
      };
    const client: ClientView = {
      name: row.name,
      redirectUris: row.first_party
        ? firstPartyRedirectUris(origin, this.config.publicUrl)
        : row.redirect_uris,
    };
    if (params.redirect_uri) {
      if (!client.redirectUris.includes(params.redirect_uri)) {
        return { error: 'The redirect_uri is not registered for this client.' };
      }
      return { client, redirectUri: params.redirect_uri };
    }
    if (client.redirectUris.length !== 1) {
      return { error: 'Missing parameter: redirect_uri.' };
    }
    return { client, redirectUri: client.redirectUris[0] };
  }
}
