import { Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';
import { requireString } from '../security/body-fields';
import { WorkspaceLookupStore } from '../workspaces/workspace-lookup-store';
import { type IntegrationKind, IntegrationLinkStore } from './integration-link-store';
import type { IntegrationWorkspaceInput } from './integrations.input';
import {
  STOREFRONT_APP,
  StorefrontApp,
  StorefrontAppRefusal,
  StorefrontAppUnavailable,
} from './storefront-app';

export interface LinkedWorkspace {
  teamId: string;
  workspaceId: string;
  workflowId: null;
}

/**
 * Links a storefront installation or a marketing account to a workspace, for the apps that
 * call with the shared integration secret (moved there when it was linked elsewhere).
 */
@Injectable()
export class IntegrationWorkspaces {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    @Inject(STOREFRONT_APP) private readonly storefront: StorefrontApp,
    private readonly workspaces: WorkspaceLookupStore,
    private readonly links: IntegrationLinkStore,
  ) {}

  /** The shared secret, compared in constant time (digests, so lengths never leak); 403 else. */
  authenticate(given: string | undefined): void {
    const secret = this.config.integrationSecret;
    const digest = (s: string) => createHash('sha256').update(s).digest();
    if (!secret || !given || !timingSafeEqual(digest(secret), digest(given)))
      throw new ApiError(403, 'Invalid or missing integration secret.');
  }

  async link(kind: IntegrationKind, input: IntegrationWorkspaceInput): Promise<LinkedWorkspace> {
    const body = input as Record<string, unknown>;
    const tokenId = requireString(body, 'tokenId').trim();
    if (tokenId.length > 255)
      throw ValidationError.of('tokenId', 'This value is too long.', ViolationCodes.tooLong);
    const rawWorkspace = requireString(body, 'workspaceId').trim();
    const workspaceId = identifierFrom(rawWorkspace);
    const teamId = workspaceId
      ? await this.workspaces.activeTeamOf(this.dataSource, workspaceId)
      : null;
    if (!workspaceId || !teamId)
      throw ValidationError.of(
        'workspaceId',
        `Item not found for "${rawWorkspace}".`,
        ViolationCodes.invalid,
      );
    let account: string | null = null;
    if (kind === 'storefront') account = await this.shopOf(tokenId);
    else if (typeof input.accountName === 'string')
      account = input.accountName.trim().slice(0, 255);
    await this.dataSource.transaction((em) =>
      this.links.link(em, { teamId, workspaceId, kind, externalId: tokenId, account }),
    );
    return { teamId, workspaceId, workflowId: null };
  }

  /** The storefront installation must be known to the storefront app: its shop. */
  private async shopOf(tokenId: string): Promise<string> {
    if (!this.storefront.configured)
      throw new ApiError(503, 'No storefront app is configured on this server.');
    try {
      const installation = await this.storefront.installation(tokenId);
      if (!installation)
        throw ValidationError.of(
          'tokenId',
          'This storefront installation is unknown.',
          ViolationCodes.invalid,
        );
      return installation.shop;
    } catch (error) {
      if (error instanceof StorefrontAppRefusal)
        throw ValidationError.of('tokenId', error.message, ViolationCodes.invalid);
      if (error instanceof StorefrontAppUnavailable)
        throw new ApiError(502, 'The storefront app is unavailable; try again later.');
      throw error;
    }
  }
}
