import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ViolationCodes, type Violation } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { DataSource } from 'typeorm';
import type { SqlRunner } from '../database/query';
import { removeNotesOfRecord } from '../notes/record-notes';
import { WorkspacePageStore } from '../workspaces/workspace-page-store';
import { builderViolations, customThemeOf } from './custom-theme';
import { type DropshipperSettings, normalizeDropshipperSettings } from './dropshipper-settings';
import { builderWithDefaults } from './page-builder';
import { RESERVED_SUBDOMAINS, domainChanged, isHostname, subdomainFormProblem } from './subdomain';
import { TrackingPage } from './tracking-page.entity';
import { TrackingPageStore } from './tracking-page-store';

/** What one write of a page carries from its first step to its last. */
export interface PageWriteState {
  /** Problems found while normalising the body (prepare), reported with validate's. */
  normalized: Violation[];
  /** The custom domain as stored before a PUT (undefined on POST and DELETE). */
  domainBefore?: string | null;
}

/** Tracking page rules, shared by `/tracking_pages` and a workspace's `defaultTrackingPage`. */
@Injectable()
export class TrackingPagesService implements ResourceHooks<TrackingPage, PageWriteState> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pages: TrackingPageStore,
    private readonly workspaces: WorkspacePageStore,
  ) {}

  begin(page: TrackingPage, ctx: WriteContext<undefined>): PageWriteState {
    return {
      normalized: [],
      ...(ctx.operation === 'put' ? { domainBefore: page.domain } : {}),
    };
  }

  prepare(page: TrackingPage, ctx: WriteContext<PageWriteState>): void {
    ctx.state.normalized = this.normalize(page);
    // A page is verified for the domain it proved only (the trigger of the table says the same
    // for writes that bypass this service).
    if (ctx.state.domainBefore !== undefined && domainChanged(ctx.state.domainBefore, page.domain))
      page.domainEnabled = false;
  }

  async validate(page: TrackingPage, ctx: WriteContext<PageWriteState>): Promise<Violation[]> {
    return this.violations(page, ctx.em, '', ctx.state.normalized);
  }

  /**
   * A workspace's first tracking page becomes its default (the spec is silent; a page nobody
   * uses by default would otherwise need a second request).
   */
  async afterWrite(page: TrackingPage, ctx: WriteContext<PageWriteState>): Promise<void> {
    if (ctx.operation !== 'post') return;
    await this.workspaces.defaultPageUnlessSet(ctx.em, page.workspace!.id, page.id);
  }

  /** DELETE: the notes on the page go with it (removeNotesOf). */
  async beforeRemove(page: TrackingPage, ctx: WriteContext<PageWriteState>): Promise<void> {
    await removeNotesOfRecord(ctx, page.id);
  }

  /**
   * Trims and canonicalises writable values; wrong nested types answer 400. Answers the
   * problems found, for `violations` (their `normalized`).
   */
  normalize(page: TrackingPage, path = ''): Violation[] {
    if (typeof page.domain === 'string') page.domain = page.domain.trim().toLowerCase() || null;
    page.builder = builderWithDefaults(page.builder, `${path}builder`);
    const { value, violations } = normalizeDropshipperSettings(
      (page.dropshipperSettings ?? {}) as Record<string, unknown>,
      `${path}dropshipperSettings`,
    );
    page.dropshipperSettings = value as unknown as Record<string, unknown>;
    return violations;
  }

  /**
   * The page's violations: `normalized` (what `normalize` answered), then the rules needing
   * the database (the subdomain free across the service) and the domain's and builder's form.
   */
  async violations(
    page: TrackingPage,
    em: SqlRunner,
    path: string,
    normalized: readonly Violation[] = [],
  ): Promise<Violation[]> {
    const out: Violation[] = [...normalized];
    const at = (p: string) => `${path}${p}`;
    if (typeof page.subdomain === 'string' && page.subdomain !== '') {
      const problem = subdomainFormProblem(page.subdomain);
      if (problem) {
        out.push({
          propertyPath: at('subdomain'),
          message: problem,
          code: problem.startsWith('This value is too long')
            ? ViolationCodes.tooLong
            : ViolationCodes.regex,
        });
      } else if (!(await this.subdomainAvailable(em, page.subdomain, page.id))) {
        out.push({
          propertyPath: at('subdomain'),
          message: 'This subdomain is already taken.',
          code: ViolationCodes.unique,
        });
      }
    }
    // A domain may be claimed by several pages: only the one proving it (src/domains) serves it.
    if (page.domain && !isHostname(page.domain))
      out.push({
        propertyPath: at('domain'),
        message: 'This value is not a valid hostname.',
        code: ViolationCodes.invalid,
      });
    out.push(...builderViolations(page.builder, at('builder')));
    return out;
  }

  async subdomainAvailable(
    runner: SqlRunner,
    subdomain: string,
    exceptId?: string | null,
  ): Promise<boolean> {
    if (RESERVED_SUBDOMAINS.has(subdomain)) return false;
    return !(await this.pages.subdomainTaken(runner, subdomain, exceptId ?? null));
  }

  /** A new theme id and a snapshot of the theme built from the current builder. */
  regenerateTheme(page: TrackingPage): void {
    page.customThemeId = randomUUID();
    page.customTheme = customThemeOf(page.builder ?? {}, page.customThemeId) as unknown as Record<
      string,
      unknown
    >;
  }

  /**
   * What the workspace's default tracking page hides from end customers (its dropshipper
   * settings; none without a default page), for other public views of the workspace's
   * shipments (widgets) to hide the same through `publicTrackingView`.
   */
  async defaultPageHiding(workspaceId: string): Promise<DropshipperSettings> {
    const stored = await this.pages.defaultPageSettings(this.dataSource, workspaceId);
    return normalizeDropshipperSettings(stored ?? {}).value;
  }
}
