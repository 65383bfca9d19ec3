import type { CustomTheme } from './custom-theme';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { defaultTrackingPageIdSql, teamWorkspaceIdsSql } from '../workspaces/workspace-page-store';
import { TrackingPage } from './tracking-page.entity';

/** What the CSS theme of a page is made of. */
export interface PageThemeRow {
  builder: Record<string, unknown> | null;
  /** The last regenerated snapshot (a CustomTheme), if any. */
  custom_theme: CustomTheme | null;
  custom_theme_id: string | null;
}

/** An enabled page answering at a subdomain or a verified custom domain. */
export interface HomePageRow {
  id: string;
  workspace_id: string;
  subdomain: string;
}

/** What a page's brand is made of. */
export interface PageBrandRow {
  title: string | null;
  builder: Record<string, unknown> | null;
  workspace_id: string;
}

/** A page of the caller's claiming a custom domain, with its TXT token. */
export interface DomainClaimRow {
  id: string;
  workspace_id: string;
  domain_token: string;
}

/**
 * The tracking_page table's SQL. It holds no connection: every method takes the caller's
 * runner (its transaction, or the DataSource), so that the plain functions other modules call
 * (verifiedDomainsOfTeam) use it too.
 */
@Injectable()
export class TrackingPageStore {
  /** Whether a page other than `exceptId` uses the subdomain. */
  async subdomainTaken(
    runner: SqlRunner,
    subdomain: string,
    exceptId: string | null,
  ): Promise<boolean> {
    const rows = await query(
      runner,
      `SELECT 1 FROM tracking_page WHERE subdomain = $1 AND id IS DISTINCT FROM $2::uuid LIMIT 1`,
      [subdomain, exceptId],
    );
    return rows.length > 0;
  }

  async theme(runner: SqlRunner, id: string): Promise<PageThemeRow | undefined> {
    return queryOne<PageThemeRow>(
      runner,
      `SELECT builder, custom_theme, custom_theme_id FROM tracking_page WHERE id = $1`,
      [id],
    );
  }

  /** The page, locked for the rest of the transaction; null when it is gone. */
  lockedPage(em: EntityManager, id: string): Promise<TrackingPage | null> {
    return em.findOne(TrackingPage, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async save(em: EntityManager, page: TrackingPage): Promise<void> {
    await em.save(page);
  }

  /** The enabled page at the subdomain, else at the verified custom domain (lower case). */
  async enabledAt(
    runner: SqlRunner,
    subdomain: string | null,
    domain: string | null,
  ): Promise<HomePageRow | undefined> {
    return queryOne<HomePageRow>(
      runner,
      `SELECT id, workspace_id, subdomain FROM tracking_page
        WHERE enabled AND (subdomain = $1 OR (domain_enabled AND lower(domain) = $2))
        ORDER BY (subdomain = $1) DESC LIMIT 1`,
      [subdomain, domain],
    );
  }

  async brand(runner: SqlRunner, id: string): Promise<PageBrandRow | undefined> {
    return queryOne<PageBrandRow>(
      runner,
      `SELECT title, builder, workspace_id FROM tracking_page WHERE id = $1`,
      [id],
    );
  }

  /** The builder's default language (`languageMenu.defaultLan`), as stored. */
  async defaultLanguage(runner: SqlRunner, id: string): Promise<string | null> {
    const row = await queryOne<{ lang: string | null }>(
      runner,
      `SELECT builder #>> '{languageMenu,defaultLan}' AS lang FROM tracking_page WHERE id = $1`,
      [id],
    );
    return row?.lang ?? null;
  }

  async workspaceOf(runner: SqlRunner, id: string): Promise<string | undefined> {
    const row = await queryOne<{ workspace_id: string }>(
      runner,
      `SELECT workspace_id FROM tracking_page WHERE id = $1`,
      [id],
    );
    return row?.workspace_id;
  }

  /** Whether the page belongs to the workspace. */
  async inWorkspace(runner: SqlRunner, id: string, workspaceId: string | null): Promise<boolean> {
    const rows = await query(
      runner,
      `SELECT 1 FROM tracking_page WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    return rows.length > 0;
  }

  /** The dropshipper settings of the workspace's default page, as stored (none: undefined). */
  async defaultPageSettings(
    runner: SqlRunner,
    workspaceId: string,
  ): Promise<Record<string, unknown> | undefined> {
    const row = await queryOne<{ dropshipper_settings: Record<string, unknown> | null }>(
      runner,
      `SELECT p.dropshipper_settings FROM tracking_page p WHERE p.id = ${defaultTrackingPageIdSql('$1')}`,
      [workspaceId],
    );
    return row?.dropshipper_settings ?? undefined;
  }

  /** Custom domains the team's pages have verified, lower case. */
  async verifiedDomainsOfTeam(runner: SqlRunner, teamId: string): Promise<string[]> {
    const rows = await query<{ domain: string }>(
      runner,
      `SELECT DISTINCT lower(p.domain) AS domain FROM tracking_page p
        WHERE p.workspace_id IN (${teamWorkspaceIdsSql('$1')})
          AND p.domain_enabled AND p.domain IS NOT NULL`,
      [teamId],
    );
    return rows.map((r) => r.domain);
  }

  /** The pages of these workspaces claiming the domain (lower case), last changed first. */
  async domainClaims(
    runner: SqlRunner,
    domain: string,
    workspaceIds: readonly string[],
  ): Promise<DomainClaimRow[]> {
    return query<DomainClaimRow>(
      runner,
      `SELECT id, workspace_id, domain_token FROM tracking_page
        WHERE lower(domain) = $1 AND workspace_id = ANY($2::uuid[])
        ORDER BY updated_at DESC, id`,
      [domain, workspaceIds],
    );
  }

  /**
   * Records a check of the page's custom domain: `domainEnabled` follows the verdict, and a
   * page proving the domain takes it from every other page that held it.
   */
  async recordDomainCheck(
    runner: SqlRunner,
    domain: string,
    pageId: string,
    verified: boolean,
  ): Promise<void> {
    if (verified)
      await execute(
        runner,
        `UPDATE tracking_page SET domain_enabled = false, updated_at = now()
          WHERE lower(domain) = $1 AND id <> $2 AND domain_enabled`,
        [domain, pageId],
      );
    await execute(
      runner,
      `UPDATE tracking_page SET domain_enabled = $2, updated_at = now()
        WHERE id = $1 AND domain_enabled IS DISTINCT FROM $2`,
      [pageId, verified],
    );
  }
}
