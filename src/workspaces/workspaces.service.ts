import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataProvider } from '../hydra/collection/data-provider';
import {
  BadRequestError,
  ForbiddenError,
  ValidationError,
  Violation,
  ViolationCodes,
} from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { validateEntity } from '../hydra/validation/validate-entity';
import { Denormalizer, typeError } from '../hydra/write/denormalizer';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { Media } from '../media/media.entity';
import { MediaService } from '../media/media.service';
import { isImage } from '../media/sniff-media-type';
import { WorkspaceSmtpCredentialsStore } from '../credentials/workspace-smtp-credentials-store';
import { TeamMemberStore } from '../teams/team-member-store';
import { isTeamAdmin } from '../teams/team-membership';
import type { Team } from '../teams/team.entity';
import { TeamsService } from '../teams/teams.service';
import { DefaultTrackingPageStore } from '../tracking-pages/default-tracking-page-store';
import { TrackingPage } from '../tracking-pages/tracking-page.entity';
import { TrackingPagesService } from '../tracking-pages/tracking-pages.service';
import { WorkspaceDeletion } from './workspace-deletion';
import { WorkspaceStore } from './workspace-store';
import { Workspace } from './workspace.entity';

const PAGE_PATH = 'defaultTrackingPage.';
const SIGNATURE_MAX_LENGTH = 10000;
const CREDENTIALS_IRI =
  /^\/credentials\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EmailSettings {
  logo: { id: string; filePath: string } | null;
  signature: string | null;
  smtpCredentials: string | null;
}

/** What prepare() works out, for validate() and afterWrite() of the same write (ctx.state). */
export interface WorkspaceWrite {
  violations: Violation[];
  /** Default tracking page to create or update from the body's object. */
  page?: TrackingPage;
  pageOperation?: 'post' | 'put';
  /** What TrackingPagesService.normalize found in the page's object. */
  pageNormalized?: Violation[];
  emailLogoId?: string | null;
  /** Credentials emailSettings.smtpCredentials names, for validate() to check. */
  smtpCredentialsId?: string;
}

/**
 * Workspace rules. `team` on POST is an IRI of a team the caller administers,
 * or an object `{name}`: a name the caller's teams do not have creates that
 * team (owned by the caller); no name uses the caller's own team, creating
 * one when the caller has none.
 *
 * PUT replaces: optional attributes left out of the body go back to their defaults
 * (workflowsOrder [], logo null, emailSettings empty, defaultTrackingPage unset; the page
 * itself is kept).
 */
@Injectable()
export class WorkspacesService implements ResourceHooks<Workspace, WorkspaceWrite> {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly data: DataProvider,
    private readonly denormalizer: Denormalizer,
    private readonly trackingPages: TrackingPagesService,
    private readonly media: MediaService,
    private readonly deletion: WorkspaceDeletion,
    private readonly workspaces: WorkspaceStore,
    private readonly pages: DefaultTrackingPageStore,
    private readonly smtpCredentials: WorkspaceSmtpCredentialsStore,
    private readonly teamMembers: TeamMemberStore,
    private readonly teams: TeamsService,
  ) {}

  begin(): WorkspaceWrite {
    return { violations: [] };
  }

  async prepare(workspace: Workspace, ctx: WriteContext<WorkspaceWrite>): Promise<void> {
    const pending = ctx.state;
    if (ctx.operation === 'post') {
      const teamInput = ctx.nested.team;
      if (teamInput !== undefined) workspace.team = await this.teamFromObject(teamInput, ctx);
      if (workspace.team && !isTeamAdmin(ctx.principal, workspace.team.id))
        throw new ForbiddenError();
      // Known before the insert, so pages and media can point at it in the same transaction.
      workspace.id = randomUUID();
    }
    if (ctx.operation === 'put') this.resetOmitted(workspace, ctx.body);
    if ('logo' in ctx.nested) {
      if (ctx.nested.logo !== null)
        throw new BadRequestError(
          'Nested documents for attribute "logo" are not allowed. Use IRIs instead.',
        );
      workspace.logo = null;
    }
    if ('emailSettings' in ctx.body) {
      workspace.emailSettings = (await this.emailSettings(
        ctx.body.emailSettings,
        ctx,
        pending,
      )) as unknown as Record<string, unknown>;
    }
    if ('defaultTrackingPage' in ctx.nested) await this.pageFromObject(workspace, ctx, pending);
  }

  async validate(workspace: Workspace, ctx: WriteContext<WorkspaceWrite>): Promise<Violation[]> {
    const pending = ctx.state;
    const out = [...pending.violations];
    if (pending.page) {
      for (const v of await validateEntity(pending.page, pending.pageOperation!))
        out.push({ ...v, propertyPath: PAGE_PATH + v.propertyPath });
      out.push(
        ...(await this.trackingPages.violations(
          pending.page,
          ctx.em,
          PAGE_PATH,
          pending.pageNormalized,
        )),
      );
    } else if (workspace.defaultTrackingPage?.id) {
      const id = workspace.defaultTrackingPage.id;
      if (!(await this.pages.belongsTo(ctx.em, id, workspace.id ?? null)))
        out.push({
          propertyPath: 'defaultTrackingPage',
          message: 'This tracking page does not belong to this workspace.',
          code: ViolationCodes.invalid,
        });
    }
    if (pending.smtpCredentialsId) {
      const problem = await this.smtpCredentialsProblem(workspace, pending.smtpCredentialsId, ctx);
      if (problem)
        out.push({
          propertyPath: 'emailSettings.smtpCredentials',
          message: problem,
          code: ViolationCodes.invalid,
        });
    }
    const logoId = workspace.logo?.id;
    if (logoId) {
      const logo = await this.media.summary(ctx.em, logoId);
      if (!logo || !isImage(logo.mimeType))
        out.push({
          propertyPath: 'logo',
          message: 'This file is not a valid image.',
          code: ViolationCodes.invalid,
        });
    }
    return out;
  }

  async afterWrite(workspace: Workspace, ctx: WriteContext<WorkspaceWrite>): Promise<void> {
    const { em, state: pending } = ctx;
    if (ctx.operation === 'post' && !ctx.principal.workspaceIds.includes(workspace.id)) {
      ctx.principal.workspaceIds.push(workspace.id);
    }
    if (pending.page) {
      pending.page.workspace = { id: workspace.id } as Workspace;
      await this.pages.save(em, pending.page);
      await this.workspaces.setDefaultTrackingPage(em, workspace.id, pending.page.id);
    }
    if (workspace.logo?.id) {
      // Attaching may copy the media (one uploaded for another workspace): point at the copy.
      const id = await this.media.attach(em, workspace.logo.id, workspace.id);
      if (id !== workspace.logo.id) await this.workspaces.setLogo(em, workspace.id, id);
    }
    if (pending.emailLogoId) {
      const id = await this.media.attach(em, pending.emailLogoId, workspace.id);
      if (id !== pending.emailLogoId) await this.workspaces.setEmailLogo(em, workspace.id, id);
    }
  }

  /** Everything in the workspace goes with it (FK cascades), now or in the background. */
  async remove(workspace: Workspace, ctx: WriteContext<WorkspaceWrite>): Promise<void> {
    await this.deletion.deleteOrSchedule(ctx.em, workspace.id);
    const i = ctx.principal.workspaceIds.indexOf(workspace.id);
    if (i >= 0) ctx.principal.workspaceIds.splice(i, 1);
  }

  private resetOmitted(workspace: Workspace, body: Record<string, unknown>): void {
    if (!('workflowsOrder' in body)) workspace.workflowsOrder = [];
    if (!('logo' in body)) workspace.logo = null;
    if (!('emailSettings' in body))
      workspace.emailSettings = { logo: null, signature: null, smtpCredentials: null };
    if (!('defaultTrackingPage' in body)) workspace.defaultTrackingPage = null;
  }

  /**
   * `{logo, signature, smtpCredentials}`: logo an IRI of a visible image (stored as the
   * `{id, filePath}` clients read back), unknown members dropped.
   */
  private async emailSettings(
    raw: unknown,
    ctx: WriteContext,
    pending: WorkspaceWrite,
  ): Promise<EmailSettings> {
    const out: EmailSettings = { logo: null, signature: null, smtpCredentials: null };
    if (raw === null) return out;
    if (typeof raw !== 'object' || Array.isArray(raw))
      throw typeError('emailSettings', 'array', raw);
    const input = raw as Record<string, unknown>;
    const logo = input.logo;
    if (logo !== undefined && logo !== null) {
      if (typeof logo === 'object')
        throw new BadRequestError(
          'Nested documents for attribute "emailSettings.logo" are not allowed. Use IRIs instead.',
        );
      if (typeof logo !== 'string') throw typeError('emailSettings.logo', 'string', logo);
      const id = await this.data.resolveReference(this.registry.get(Media), ctx.principal, logo);
      const summary = id ? await this.media.summary(ctx.em, id) : null;
      if (!summary || !logo.startsWith('/media/')) {
        pending.violations.push({
          propertyPath: 'emailSettings.logo',
          message: `Item not found for "${logo}".`,
          code: null,
        });
      } else if (!isImage(summary.mimeType)) {
        pending.violations.push({
          propertyPath: 'emailSettings.logo',
          message: 'This file is not a valid image.',
          code: ViolationCodes.invalid,
        });
      } else {
        out.logo = { id: summary.id, filePath: summary.filePath };
        pending.emailLogoId = summary.id;
      }
    }
    const signature = input.signature;
    if (signature !== undefined && signature !== null) {
      if (typeof signature !== 'string')
        throw typeError('emailSettings.signature', 'string', signature);
      if ([...signature].length > SIGNATURE_MAX_LENGTH)
        pending.violations.push({
          propertyPath: 'emailSettings.signature',
          message: `This value is too long. It should have ${SIGNATURE_MAX_LENGTH} characters or less.`,
          code: ViolationCodes.tooLong,
        });
      out.signature = signature;
    }
    const credentials = input.smtpCredentials;
    if (credentials !== undefined && credentials !== null) {
      if (typeof credentials !== 'string')
        throw typeError('emailSettings.smtpCredentials', 'string', credentials);
      out.smtpCredentials = await this.credentialsReference(credentials, ctx, pending);
    }
    return out;
  }

  /**
   * An IRI of SMTP credentials. Checked against the credentials resource when it exists;
   * until then (credentials are not built yet) only its form is checked.
   */
  private async credentialsReference(
    iri: string,
    ctx: WriteContext,
    pending: WorkspaceWrite,
  ): Promise<string | null> {
    const violation = {
      propertyPath: 'emailSettings.smtpCredentials',
      message: `Item not found for "${iri}".`,
      code: null,
    };
    const resource = this.registry.all().find((r) => r.path === '/credentials');
    if (!CREDENTIALS_IRI.test(iri)) throw new BadRequestError(`Invalid IRI "${iri}".`);
    if (resource) {
      const id = await this.data.resolveReference(resource, ctx.principal, iri);
      if (!id) {
        pending.violations.push(violation);
        return null;
      }
      pending.smtpCredentialsId = id;
    }
    return iri.toLowerCase();
  }

  /**
   * Why visible credentials cannot be the workspace's SMTP server: they must be `smtp`
   * credentials of the workspace's own team (a member of two teams sees both teams' records).
   */
  private async smtpCredentialsProblem(
    workspace: Workspace,
    credentialsId: string,
    ctx: WriteContext,
  ): Promise<string | null> {
    const credentials = await this.smtpCredentials.typeAndTeam(ctx.em, credentialsId);
    if (!credentials) return `Item not found for "/credentials/${credentialsId}".`;
    if (credentials.type !== 'smtp') return 'The credentials must be of type smtp.';
    let teamId: string | undefined = workspace.team?.id;
    if (!teamId && workspace.id) teamId = await this.workspaces.teamOf(ctx.em, workspace.id);
    return teamId && credentials.team_id !== teamId
      ? 'The credentials must belong to the team of the workspace.'
      : null;
  }

  /**
   * `defaultTrackingPage` given as an object: on POST (or a workspace without a default page)
   * a new page, on PUT the current default page updated with the given members.
   */
  private async pageFromObject(
    workspace: Workspace,
    ctx: WriteContext,
    pending: WorkspaceWrite,
  ): Promise<void> {
    const input = ctx.nested.defaultTrackingPage;
    if (input === null) {
      workspace.defaultTrackingPage = null;
      return;
    }
    const { em } = ctx;
    let page: TrackingPage | null = null;
    if (ctx.operation === 'put') {
      const pageId = await this.workspaces.defaultTrackingPageId(em, workspace.id);
      if (pageId) page = await this.pages.lock(em, pageId);
    }
    const operation = page ? 'put' : 'post';
    page ??= this.pages.create(em);
    page.workspace = { id: workspace.id } as Workspace;
    // The page belongs to this workspace whatever the object says.
    const { workspace: _ignored, ...members } = input;
    const result = await this.denormalizer.apply(
      this.registry.get(TrackingPage),
      page as unknown as Record<string, unknown>,
      members,
      operation,
      ctx.principal,
    );
    pending.violations.push(
      ...result.violations.map((v) => ({ ...v, propertyPath: PAGE_PATH + v.propertyPath })),
    );
    pending.pageNormalized = this.trackingPages.normalize(page, PAGE_PATH);
    pending.page = page;
    pending.pageOperation = operation;
    // Set after the page is saved (afterWrite); keep the column as it is until then.
    workspace.defaultTrackingPage = undefined as unknown as null;
  }

  /**
   * The team of a POST's `team` object: the caller's team of that name (one they administer),
   * else a new one they own; without a name their first team, or a new one.
   */
  private async teamFromObject(
    input: Record<string, unknown> | null,
    ctx: WriteContext,
  ): Promise<Team> {
    const name = input?.name;
    if (name !== undefined && name !== null && typeof name !== 'string') {
      throw ValidationError.of(
        'team.name',
        'This value should be of type string.',
        ViolationCodes.invalid,
      );
    }
    const { em, principal } = ctx;
    const mine = await this.teamMembers.administeredBy(em, principal.userId, 'joined');
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!trimmed) {
      if (mine.length > 0) return mine[0] as Team;
      const fallback = principal.email.split('@')[0] || 'My team';
      return (await this.teams.createOwned(em, principal, fallback)) as Team;
    }
    const existing = mine.find((t) => t.name === trimmed);
    if (existing) return existing as Team;
    if (trimmed.length > 255) {
      throw ValidationError.of(
        'team.name',
        'This value is too long. It should have 255 characters or less.',
        ViolationCodes.tooLong,
      );
    }
    return (await this.teams.createOwned(em, principal, trimmed)) as Team;
  }
}
