import { Inject, Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { hashPassword } from '../auth/password-hasher';
import { hashToken } from '../auth/secret-token';
import { TokenIssuer, TokenResponse } from '../auth/token-issuer';
import { AppConfig } from '../config/app-config';
import { ApiError, ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { typeError } from '../hydra/write/denormalizer';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { MailDispatcher } from '../mail/mail-dispatcher';
import { AccountThrottle } from '../security/account-throttle';
import { UserTokens } from '../security/user-tokens';
import { readNewPassword } from '../users/password-policy';
import { Workspace } from '../workspaces/workspace.entity';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { UserRegistrationStore, type RegisteredUser } from '../users/user-registration-store';
import { WorkspaceLookupStore } from '../workspaces/workspace-lookup-store';
import { IntegrationLinkStore } from './integration-link-store';
import {
  STOREFRONT_APP,
  StorefrontApp,
  StorefrontAppRefusal,
  StorefrontAppUnavailable,
  StorefrontInstallation,
} from './storefront-app';
import { StorefrontInstallationStore } from './storefront-installation-store';
import { storefrontMails } from './storefront-mails';

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

/** Signed in at once (the shop's own, new address), or null: the answer waits for the mail. */
export type RegistrationOutcome = Registration | null;

function alreadyUsed(): ValidationError {
  return ValidationError.of(
    'tokenId',
    'This storefront installation has already been used to register: sign in and link the shop from your workspace.',
    ViolationCodes.invalid,
  );
}

/** Thrown to undo a transaction's nested work (undone). */
class Undo extends Error {}

/** Runs `work` in a savepoint of `em`'s transaction, then rolls it back; errors go through. */
async function undone(em: EntityManager, work: (inner: EntityManager) => Promise<void>) {
  try {
    await em.transaction(async (inner) => {
      await work(inner);
      throw new Undo();
    });
  } catch (error) {
    if (!(error instanceof Undo)) throw error;
  }
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
    private readonly tokens: UserTokens,
    private readonly throttle: AccountThrottle,
    private readonly mail: MailDispatcher,
    private readonly config: AppConfig,
    private readonly installations: StorefrontInstallationStore,
    private readonly links: IntegrationLinkStore,
    private readonly users: UserRegistrationStore,
    private readonly workspaceLookup: WorkspaceLookupStore,
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

  /**
   * Registers `input` for a client at `ip`. Every check (budgets, a spent or unknown
   * installation, a linked shop, the team, workspace and subdomain rules) comes before the
   * password is hashed, and the answer is the same whether or not the address has an account.
   */
  async register(input: RegistrationInput, ip: string): Promise<RegistrationOutcome> {
    await this.throttle.spend('storefront-register', ip, input.email);
    const tokenHash = hashToken(input.tokenId);
    // Cheap, before the app is asked; spending it in the transaction is what holds.
    if (await this.installations.used(this.dataSource, tokenHash)) throw alreadyUsed();
    const installation = await this.installation(input.tokenId);
    const shopName = installation.shopName ?? installation.shop;
    // The storefront platform vouches for the shop's own address: only it is signed in at once.
    const ownAddress = installation.email?.toLowerCase() === input.email.toLowerCase();
    const outcome = await this.dataSource.transaction(async (em) => {
      if (!(await this.installations.spend(em, tokenHash))) throw alreadyUsed();
      if (await this.links.isLinked(em, 'storefront', input.tokenId))
        throw ValidationError.of(
          'tokenId',
          'This shop is already registered: sign in and manage it from your workspace.',
          ViolationCodes.invalid,
        );
      const { firstName, lastName } = input;
      const user = await this.users.createUnlessTaken(em, {
        email: input.email,
        firstName,
        lastName,
        emailVerified: ownAddress,
      });
      if (!user) {
        // A known address goes through the same checks as a new one (so a taken subdomain is
        // refused alike) on a stand-in account, undone: only the installation stays spent.
        await undone(em, async (inner) => {
          const email = `stand-in-${randomUUID()}@registration.invalid`;
          const standIn = await this.users.create(inner, { email, firstName, lastName });
          await this.setUp(inner, standIn, input, installation);
          // Hashed for a known address too: both answers take as long.
          await hashPassword(input.password);
        });
        return { kind: 'known' } as const;
      }
      const { teamId, workspaceId } = await this.setUp(em, user, input, installation);
      const passwordHash = await hashPassword(input.password);
      if (!ownAddress) {
        // Applied when the code proves the address (as /security/signup does).
        const code = await this.tokens.issue(em, user.id, 'verify_email', passwordHash);
        return { kind: 'pending', code } as const;
      }
      await this.users.setPasswordHash(em, user.id, passwordHash);
      const token = await this.issuer.issue(user, em);
      return {
        kind: 'ready',
        registration: { userId: user.id, teamId, workspaceId, token },
      } as const;
    });
    if (outcome.kind === 'ready') return outcome.registration;
    this.mail.dispatch(
      outcome.kind === 'known'
        ? storefrontMails.alreadyRegistered(this.config, input.email, shopName)
        : storefrontMails.verification(this.config, input.email, shopName, outcome.code),
    );
    return null;
  }

  /** The user's team and workspace (with its tracking page), and the shop linked to it. */
  private async setUp(
    em: EntityManager,
    user: RegisteredUser,
    input: RegistrationInput,
    installation: StorefrontInstallation,
  ): Promise<{ teamId: string; workspaceId: string }> {
    const principal: Principal = {
      userId: user.id,
      email: user.email,
      teamIds: [],
      adminTeamIds: [],
      workspaceIds: [],
    };
    const workspaceId = await this.createWorkspace(em, principal, input);
    const teamId = (await this.workspaceLookup.teamOf(em, workspaceId))!;
    await this.links.link(em, {
      teamId,
      workspaceId,
      kind: 'storefront',
      externalId: input.tokenId,
      account: installation.shop,
      details: { shopName: installation.shopName, currency: installation.currency },
    });
    return { teamId, workspaceId };
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
