import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/**
 * The product and product_variant tables' SQL for DELETE /workflows/{id}?deleteData=1
 * (src/workflows/integration-data.ts): the team's catalogue an integration synced.
 */
@Injectable()
export class ProductIntegrationStore {
  /** Deletes the team's products and variants the workflow (by IRI) brought in. */
  async removeBroughtIn(runner: SqlRunner, teamId: string, workflowIri: string): Promise<void> {
    await query(
      runner,
      'DELETE FROM product WHERE team_id = $2 AND external_source_integration = $1',
      [workflowIri, teamId],
    );
    await query(
      runner,
      'DELETE FROM product_variant WHERE team_id = $2 AND external_source_integration = $1',
      [workflowIri, teamId],
    );
  }
}
