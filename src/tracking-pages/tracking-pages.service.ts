import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ViolationCodes, type Violation } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOfRecord } from '../notes/record-notes';
import { builderViolations, customThemeOf } from './custom-theme';
import { normalizeDropshipperSettings } from './dropshipper-settings';
import { builderWithDefaults } from './page-builder';
import { RESERVED_SUBDOMAINS, isHostname, subdomainFormProblem } from './subdomain';
import { TrackingPage } from './tracking-page.entity';

/** Tracking page rules, shared by `/tracking_pages` and a workspace's `defaultTrackingPage`. */
@Injectable()
export class TrackingPagesService implements ResourceHooks<TrackingPage> {
  prepare(page: TrackingPage): void {
    this.normalize(page);
  }

  async validate(page: TrackingPage, ctx: WriteContext): Promise<Violation[]> {
    return this.violations(page, ctx.em, '');
  }

  /**
   * A workspace's first tracking page becomes its default (the spec is silent; a page nobody
   * uses by default would otherwise need a second request).
   */
  async afterWrite(page: TrackingPage, ctx: WriteContext): Promise<void> {
    if (ctx.operation !== 'post') return;
    await ctx.em.query(
      `UPDATE workspace SET default_tracking_page_id = $1 WHERE id = $2 AND default_tracking_page_id IS NULL`,
      [page.id, page.workspace!.id],
    );
  }

  /** DELETE: the notes on the page go with it (removeNotesOf). */
  async beforeRemove(page: TrackingPage, ctx: WriteContext): Promise<void> {
    await removeNotesOfRecord(ctx, page.id);
  }

  /** Trims and canonicalises writable values; wrong nested types answer 400. */
  normalize(page: TrackingPage, path = ''): Violation[] {
    if (typeof page.domain === 'string') page.domain = page.domain.trim().toLowerCase() || null;
    page.builder = builderWithDefaults(page.builder, `${path}builder`);
    const { value, violations } = normalizeDropshipperSettings(
      (page.dropshipperSettings ?? {}) as Record<string, unknown>,
      `${path}dropshipperSettings`,
    );
    page.dropshipperSettings = value as unknown as Record<string, unknown>;
    this.pending.set(page, violations);
    return violations;
  }

  private readonly pending = new WeakMap<TrackingPage, Violation[]>();

  /** Rules needing the database: the subdomain free across the service; the domain's form. */
  async violations(page: TrackingPage, em: EntityManager, path: string): Promise<Violation[]> {
    const out: Violation[] = [...(this.pending.get(page) ?? [])];
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
    em: EntityManager | { query: EntityManager['query'] },
    subdomain: string,
    exceptId?: string | null,
  ): Promise<boolean> {
    if (RESERVED_SUBDOMAINS.has(subdomain)) return false;
    const rows = await em.query(
      `SELECT 1 FROM tracking_page WHERE subdomain = $1 AND id IS DISTINCT FROM $2::uuid LIMIT 1`,
      [subdomain, exceptId ?? null],
    );
    return rows.length === 0;
  }

  /** A new theme id and a snapshot of the theme built from the current builder. */
  regenerateTheme(page: TrackingPage): void {
    page.customThemeId = randomUUID();
    page.customTheme = customThemeOf(page.builder ?? {}, page.customThemeId) as unknown as Record<
      string,
      unknown
    >;
  }
}
