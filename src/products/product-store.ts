import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { lockForTransaction } from '../database/advisory-lock';
import { query, queryOne } from '../database/query';
import { workspaceTeamSql } from '../workspaces/workspace-team-sql';

/** The teams of a catalogue reference, for the check that it is the workspace's team's. */
export interface CatalogueTeams {
  /** The workspace's team. */
  teamId: string | null;
  productTeam: string | null;
  variantTeam: string | null;
  /** The product of the variant. */
  variantProduct: string | null;
}

/**
 * The product and product_variant tables' SQL for the catalogue's rules: prepared statements
 * on the caller's transaction, typed rows.
 */
@Injectable()
export class ProductStore {
  /** The product's team, or null when there is no such product. */
  async teamOf(em: EntityManager, productId: string): Promise<string | null> {
    const row = await queryOne<{ team_id: string }>(
      em,
      'SELECT team_id FROM product WHERE id = $1',
      [productId],
    );
    return row?.team_id ?? null;
  }

  /**
   * Whether the team has a product from this integration with this store id. Takes a
   * transaction lock on the triple first, so two posts of one product cannot both find none.
   */
  async syncIdTaken(
    em: EntityManager,
    teamId: string,
    integration: string | null,
    syncId: string,
  ): Promise<boolean> {
    await lockForTransaction(em, `product:${teamId}:${integration ?? ''}:${syncId}`);
    const rows = await query(
      em,
      `SELECT 1 FROM product WHERE team_id = $1 AND external_source_sync_id = $2
          AND external_source_integration IS NOT DISTINCT FROM $3 LIMIT 1`,
      [teamId, syncId, integration],
    );
    return rows.length > 0;
  }

  /** The teams of a product and a variant (either may be null) and of a workspace. */
  async catalogueTeams(
    em: EntityManager,
    workspaceId: string,
    productId: string | null,
    variantId: string | null,
  ): Promise<CatalogueTeams> {
    const row = await queryOne<{
      team_id: string | null;
      product_team: string | null;
      variant_team: string | null;
      variant_product: string | null;
    }>(
      em,
      `SELECT ${workspaceTeamSql.teamOf('$1::uuid')} AS team_id,
              (SELECT team_id FROM product WHERE id = $2) AS product_team,
              (SELECT team_id FROM product_variant WHERE id = $3) AS variant_team,
              (SELECT product_id FROM product_variant WHERE id = $3) AS variant_product`,
      [workspaceId, productId, variantId],
    );
    return {
      teamId: row!.team_id,
      productTeam: row!.product_team,
      variantTeam: row!.variant_team,
      variantProduct: row!.variant_product,
    };
  }
}
