import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { BATCH_ENTITIES } from '../batches/batch-entities';
import { announcedByCaller, type AnnouncedRecord } from '../events/indirect-changes';
import { HydraApi } from '../hydra/controller/hydra-api';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';

/** `?deleteData=1` (or true / yes): the reference's switch on DELETE /workflows/{id}. */
export function deleteDataRequested(value: unknown): boolean {
  return typeof value === 'string' && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

/**
 * Where each kind of record names the integration that brought it in, in the order they go
 * (items before what holds them; what a cascade took already is skipped).
 */
const BROUGHT_IN: Array<{
  entity: string;
  table: string;
  condition: string;
  byIri?: boolean;
  /** Records whose indirect updates events announce (indirect-changes.ts). */
  aggregate?: AnnouncedRecord['aggregate'];
}> = [
  {
    entity: 'shipment_items',
    table: 'shipment_item',
    condition: 'external_source_integration_id = $1',
  },
  {
    entity: 'shipments',
    table: 'shipment',
    condition: 'external_source_integration_id = $1',
    aggregate: 'shipment',
  },
  {
    entity: 'order_items',
    table: 'order_item',
    condition: 'external_source_integration = $1',
    byIri: true,
  },
  {
    entity: 'orders',
    table: '"order"',
    condition: 'external_source_integration = $1',
    byIri: true,
    aggregate: 'order',
  },
];

/**
 * DELETE /workflows/{id}?deleteData=1: the records the integration brought in (shipments,
 * shipment items, orders, order items, whose externalSourceIntegration is the workflow, and
 * the team's products and variants it synced) go with it, each through the rules of its own
 * DELETE (notes, order fulfilment, outbox events), in the workflow's delete transaction. The
 * shipments and orders going are not announced as indirectly updated on the way (their
 * `.deleted` events tell); records the integration did not bring in are.
 */
@Injectable()
export class IntegrationData {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly api: HydraApi,
  ) {}

  async remove(ctx: WriteContext, workflowId: string): Promise<void> {
    const { em } = ctx;
    const [row]: Array<{ workspace_id: string }> = await em.query(
      `SELECT workspace_id FROM workflow WHERE id = $1`,
      [workflowId],
    );
    if (!row) return;
    const iri = `/workflows/${workflowId}`;
    const batches: Array<{ kind: (typeof BROUGHT_IN)[number]; ids: string[] }> = [];
    for (const kind of BROUGHT_IN) {
      const rows: Array<{ id: string }> = await em.query(
        `SELECT id FROM ${kind.table} WHERE workspace_id = $2 AND ${kind.condition}
          ORDER BY id FOR UPDATE`,
        [kind.byIri ? iri : workflowId, row.workspace_id],
      );
      batches.push({ kind, ids: rows.map((r) => r.id) });
    }
    const announced = batches.flatMap(({ kind, ids }) =>
      kind.aggregate ? ids.map((id) => ({ aggregate: kind.aggregate!, id })) : [],
    );
    await announcedByCaller(em, announced, async () => {
      for (const { kind, ids } of batches) {
        const spec = BATCH_ENTITIES[kind.entity];
        const resource = this.api.resource(spec.target);
        const hooks = this.moduleRef.get<ResourceHooks>(spec.hooks, { strict: false });
        for (const id of ids) {
          const [still] = await em.query(`SELECT 1 FROM ${kind.table} WHERE id = $1`, [id]);
          if (!still) continue;
          await this.api.writer.removeWithin(
            em,
            resource,
            { id },
            ctx.principal,
            hooks,
            ctx.request,
          );
        }
      }
    });
    await em.query(
      `DELETE FROM product p USING workspace w
        WHERE w.id = $2 AND p.team_id = w.team_id AND p.external_source_integration = $1`,
      [iri, row.workspace_id],
    );
    await em.query(
      `DELETE FROM product_variant v USING workspace w
        WHERE w.id = $2 AND v.team_id = w.team_id AND v.external_source_integration = $1`,
      [iri, row.workspace_id],
    );
  }
}
