import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { BATCH_ENTITIES } from '../batches/batch-entities';
import type { SqlRunner } from '../database/query';
import { announcedByCaller, type AnnouncedRecord } from '../events/indirect-changes';
import { HydraApi } from '../hydra/controller/hydra-api';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { OrderItemIntegrationStore } from '../order-items/order-item-integration-store';
import { OrderIntegrationStore } from '../orders/order-integration-store';
import { ProductIntegrationStore } from '../products/product-integration-store';
import { ShipmentItemIntegrationStore } from '../shipment-items/shipment-item-integration-store';
import { ShipmentIntegrationStore } from '../shipments/shipment-integration-store';
import { WorkspaceLookupStore } from '../workspaces/workspace-lookup-store';
import { WorkflowStore } from './workflow-store';

/** `?deleteData=1` (or true / yes): the reference's switch on DELETE /workflows/{id}. */
export function deleteDataRequested(value: unknown): boolean {
  return typeof value === 'string' && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

/** Records of one kind an integration brings in, as their owner's store finds them. */
interface BroughtIn {
  broughtIn(runner: SqlRunner, workspaceId: string, workflowId: string): Promise<string[]>;
  exists(runner: SqlRunner, id: string): Promise<boolean>;
}

/** A kind by its collection (BATCH_ENTITIES: its resource and DELETE rules). */
interface Kind {
  entity: string;
  store: BroughtIn;
  /** Shipments and orders: their indirect updates are events (indirect-changes.ts). */
  aggregate?: AnnouncedRecord['aggregate'];
}

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
  /** In the order they go: items before what holds them (a cascade's leftovers skipped). */
  private readonly kinds: readonly Kind[];

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly api: HydraApi,
    private readonly workflows: WorkflowStore,
    private readonly workspaces: WorkspaceLookupStore,
    private readonly products: ProductIntegrationStore,
    shipmentItems: ShipmentItemIntegrationStore,
    shipments: ShipmentIntegrationStore,
    orderItems: OrderItemIntegrationStore,
    orders: OrderIntegrationStore,
  ) {
    this.kinds = [
      { entity: 'shipment_items', store: shipmentItems },
      { entity: 'shipments', store: shipments, aggregate: 'shipment' },
      { entity: 'order_items', store: orderItems },
      { entity: 'orders', store: orders, aggregate: 'order' },
    ];
  }

  async remove(ctx: WriteContext, workflowId: string): Promise<void> {
    const { em } = ctx;
    const workspaceId = await this.workflows.workspaceOf(em, workflowId);
    if (!workspaceId) return;
    const batches: Array<{ kind: Kind; ids: string[] }> = [];
    for (const kind of this.kinds)
      batches.push({ kind, ids: await kind.store.broughtIn(em, workspaceId, workflowId) });
    const announced = batches.flatMap(({ kind, ids }) =>
      kind.aggregate ? ids.map((id) => ({ aggregate: kind.aggregate!, id })) : [],
    );
    await announcedByCaller(em, announced, async (announcing) => {
      for (const { kind, ids } of batches) {
        const spec = BATCH_ENTITIES[kind.entity];
        const resource = this.api.resource(spec.target);
        const hooks = this.moduleRef.get<ResourceHooks>(spec.hooks, { strict: false });
        for (const id of ids) {
          if (!(await kind.store.exists(announcing, id))) continue;
          await this.api.writer.removeWithin(
            announcing,
            resource,
            { id },
            ctx.principal,
            hooks,
            ctx.request,
          );
        }
      }
    });
    const teamId = await this.workspaces.teamOf(em, workspaceId);
    if (teamId) await this.products.removeBroughtIn(em, teamId, `/workflows/${workflowId}`);
  }
}
