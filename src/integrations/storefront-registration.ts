import { Inject, Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { hashPassword } from '../auth/password-hasher';
import { TokenIssuer, TokenResponse } from '../auth/token-issuer';
import { ApiError, ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { typeError } from '../hydra/write/denormalizer';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { readNewPassword } from '../users/password-policy';
import { Workspace } from '../workspaces/workspace.entity';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { linkWorkspace } from './integration-links';
import {
  STOREFRONT_APP,
  StorefrontApp,
  StorefrontAppRefusal,
  StorefrontAppUnavailable,
  StorefrontInstallation,
} from './storefront-app';

export interface RegistrationInput {
  tokenId: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  team: string;
  workspace: string;
  subdomain: string;
}

export interface Registration {
  userId: string;
  teamId: string;
  workspaceId: string;
  token: TokenResponse;
}

/** The reference's team and workspace names: letters, digits, spaces, `-`, `_` and `&`. */
const NAME_PATTERN = /^[\w\-\d\s&]+$/u;

/**
 * Sign-up from the storefront app: a merchant who installed the app in a shop creates an
 * account, a team, its first workspace (with a tracking page at `subdomain`), and the shop is
 * linked to that workspace, all in one transaction; the answer carries a token so the app can
 * continue as the user at once.
 *
 * The installation (`tokenId`) must be known to the storefront app. The address is verified when
 * it is the shop's own e-mail as the storefront platform reports it; otherwise it stays
 * unverified (the user verifies it through /security/resend-email and /security/verify-email).
 */
@Injectable()
export class StorefrontRegistration {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(STOREFRONT_APP) private readonly storefront: StorefrontApp,
    private readonly writer: ResourceWriter,
    private readonly registry: ResourceRegistry,
    private readonly workspaces: WorkspacesService,
    private readonly issuer: TokenIssuer,
  ) {}

  /** Reads and checks the body (400 types, 422 values), before anything is asked of the app. */
  read(body: Record<string, unknown>): RegistrationInput {
    const violations: Violation[] = [];
    const text = (property: string, max: number): string => {
      const value = body[property];
      if (value !== undefined && value !== null && typeof value !== 'string')
        throw typeError(property, 'string', value);
      const trimmed = typeof value === 'string' ? value.trim() : '';
      if (!trimmed)
        violations.push({
          propertyPath: property,
          message: 'This value should not be blank.',
          code: ViolationCodes.notBlank,
        });
      else if ([...trimmed].length > max)
        violations.push({
          propertyPath: property,
          message: `This value is too long. It should have ${max} characters or less.`,
          code: ViolationCodes.tooLong,
        });
      return trimmed;
    };
    const input = {
      tokenId: text('tokenId', 255),
      firstName: text('firstName', 255),
      lastName: text('lastName', 255),
      email: text('email', 180),
      team: text('team', 255),
      workspace: text('workspace', 255),
      subdomain: text('subdomain', 63).toLowerCase(),
      password: '',
    };
    if (input.email && !isEmail(input.email))
      violations.push({
        propertyPath: 'email',
        message: 'This value is not a valid email address.',
        code: ViolationCodes.email,
      });
    for (const property of ['team', 'workspace'] as const) {
      const value = input[property];
      if (value && !NAME_PATTERN.test(value))
        violations.push({
          propertyPath: property,
          message: 'This value may hold letters, digits, spaces, "-", "_" and "&" only.',
          code: ViolationCodes.regex,
        });
    }
    if (input.team && [...input.team].length < 4)
      violations.push({
        propertyPath: 'team',
        message: 'This value is too short. It should have 4 characters or more.',
        code: ViolationCodes.tooShort,
      });
    const rawPassword = body.plainPassword;
    if (rawPassword === undefined || rawPassword === null || rawPassword === '') {
      violations.push({
        propertyPath: 'plainPassword',
        message: 'This value should not be blank.',
        code: ViolationCodes.notBlank,
      });
    } else {
      try {
        input.password = readNewPassword(rawPassword, 'plainPassword')!;
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        violations.push(...error.violations);
      }
    }
    if (violations.length) throw new ValidationError(violations);
    return input;
  }

  async register(input: RegistrationInput): Promise<Registration> {
    const installation = await this.installation(input.tokenId);
    const passwordHash = await hashPassword(input.password);
    return this.dataSource.transaction(async (em) => {
      const linked = await em.query(
        `SELECT 1 FROM integration_link WHERE kind = 'storefront' AND external_id = $1`,
        [input.tokenId],
      );
      if (linked.length)
        throw ValidationError.of(
          'tokenId',
          'This shop is already registered: sign in and manage it from your workspace.',
          ViolationCodes.invalid,
        );
      const verified = installation.email?.toLowerCase() === input.email.toLowerCase();
      const [user] = await em.query(
        `INSERT INTO "user" (email, first_name, last_name, password_hash, email_verified)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (email) DO NOTHING RETURNING id, email::text AS email`,
        [input.email, input.firstName, input.lastName, passwordHash, verified],
      );
      if (!user)
        throw ValidationError.of(
          'email',
          'An account with this e-mail address already exists: sign in to link the shop.',
          ViolationCodes.unique,
        );
      const principal: Principal = {
        userId: user.id,
        email: user.email,
        teamIds: [],
        adminTeamIds: [],
        workspaceIds: [],
      };
      const workspaceId = await this.createWorkspace(em, principal, input);
      const [{ team_id: teamId }] = await em.query(`SELECT team_id FROM workspace WHERE id = $1`, [
        workspaceId,
      ]);
      await linkWorkspace(em, {
        teamId,
        workspaceId,
        kind: 'storefront',
        externalId: input.tokenId,
        account: installation.shop,
        details: { shopName: installation.shopName, currency: installation.currency },
      });
      const token = await this.issuer.issue(user, em);
      return { userId: user.id, teamId, workspaceId, token };
    });
  }

  /**
   * The workspace through the workspace resource's own write pipeline (team created from its
   * name, default tracking page from the subdomain, every rule of POST /workspaces), with
   * violations reported under this body's names.
   */
  private async createWorkspace(
    em: EntityManager,
    principal: Principal,
    input: RegistrationInput,
  ): Promise<string> {
    try {
      return await this.writer.createWithin(
        em,
        this.registry.get(Workspace),
        {
          team: { name: input.team },
          title: input.workspace,
          defaultTrackingPage: { subdomain: input.subdomain, title: input.workspace },
        },
        principal,
        this.workspaces,
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError(
        error.violations.map((v) => ({
          ...v,
          propertyPath: v.propertyPath
            .replace(/^defaultTrackingPage\.subdomain$/, 'subdomain')
            .replace(/^team(\.name)?$/, 'team')
            .replace(/^title$/, 'workspace'),
        })),
      );
    }
  }

  private async installation(tokenId: string): Promise<StorefrontInstallation> {
    if (!this.storefront.configured)
      throw new ApiError(503, 'No storefront app is configured on this server.');
    let found: StorefrontInstallation | null;
    try {
      found = await this.storefront.installation(tokenId);
    } catch (error) {
      if (error instanceof StorefrontAppRefusal)
        throw ValidationError.of('tokenId', error.message, ViolationCodes.invalid);
      if (error instanceof StorefrontAppUnavailable)
        throw new ApiError(502, 'The storefront app is unavailable; try again later.');
      throw error;
    }
    if (!found)
      throw ValidationError.of(
        'tokenId',
        'This storefront installation is unknown.',
        ViolationCodes.invalid,
      );
    return found;
  }
}
