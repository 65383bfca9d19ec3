import { Typed } from '../hydra/validation/input-types';

/**
 * `POST /integration/storefront/register`: the merchant's sign-up from the storefront app.
 * Types are checked here (400); blank, long and malformed values by
 * `StorefrontRegistration.read` (422, all at once).
 */
export class StorefrontRegisterInput {
  /** The storefront installation (shop) the app was installed in. */
  @Typed('string') tokenId?: string;
  @Typed('string') firstName?: string;
  @Typed('string') lastName?: string;
  @Typed('string') email?: string;
  @Typed('string') plainPassword?: string;
  /** The new team's name (4 to 255 letters, digits, spaces, `-`, `_`, `&`). */
  @Typed('string') team?: string;
  /** The first workspace's name. */
  @Typed('string') workspace?: string;
  /** The subdomain of the workspace's first tracking page. */
  @Typed('string') subdomain?: string;
}

/** `POST /integration-secure/{storefront|marketing_provider}/workspace`. */
export class IntegrationWorkspaceInput {
  /** The storefront installation, or the marketing provider's account id. */
  @Typed('string') tokenId?: string;
  /** The workspace (id or IRI) to link it to. */
  @Typed('string') workspaceId?: string;
  /** The marketing account's name (marketing provider only; the storefront's comes from its app). */
  @Typed('string') accountName?: string | null;
}
