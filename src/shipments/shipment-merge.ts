import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { announcedByCaller } from '../events/indirect-changes';
import { RecordChangeEvents } from '../events/record-change-events';
import { HydraApi } from '../hydra/controller/hydra-api';
import {
  NotFoundError,
  ValidationError,
  ViolationCodes,
  type Violation,
} from '../common/errors/api-errors';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { NoteTransferStore } from '../notes/note-transfer-store';
import { orderIdsOf } from '../orders/order-aggregates';
import { OrderStore } from '../orders/order-store';
import { Order } from '../orders/order.entity';
import { ShipmentItemStore } from '../shipment-items/shipment-item-store';
import { ShipmentTransferStore } from '../tracking-pages/shipment-transfer-store';
import { ShipmentBatchStore } from './shipment-batch-store';
import { ShipmentEvents } from './shipment-events';
import type { MergeRequest } from './shipment-merge-request';
import { ShipmentMergeStore } from './shipment-merge-store';
import { Shipment } from './shipment.entity';
import { ShipmentsService } from './shipments.service';

/**
 * POST /shipments/merge: folds duplicate shipments of one workspace into one. The target
 * keeps its id, tracking number and data; from the duplicates it receives their shipment
 * items, their orders (links and `orderNumbers`), their notes, their customers' tracking
 * page links (one per page) and review, and the e-mail, phone, address and shipment status
 * it lacks (a merge should not lose what a duplicate knew). The duplicates are then
 * deleted through the shipment rules, with their checkpoints (the target keeps tracking
 * its own number), and the fulfilment of every order involved is recomputed. All in one
 * transaction with every shipment locked: it happens completely or not at all.
 *
 * The merge announces what it changed itself, once, with `cause: "merge"`: a
 * `shipment.updated` of the target (its number taken in the plugin's form included) and an
 * `order.updated` of each order whose representation moved; the duplicates get their
 * `shipment.deleted`. Each table's statements are its owner's: shipments (this module's
 * stores), shipment items, notes, tracking page links and reviews, orders.
 */
@Injectable()
export class ShipmentMerge {
  constructor(
    private readonly api: HydraApi,
    private readonly dataSource: DataSource,
    private readonly writer: ResourceWriter,
    private readonly shipmentsService: ShipmentsService,
    private readonly shipmentEvents: ShipmentEvents,
    private readonly orderEvents: RecordChangeEvents,
    private readonly shipments: ShipmentMergeStore,
    private readonly shipmentRecords: ShipmentBatchStore,
    private readonly items: ShipmentItemStore,
    private readonly notes: NoteTransferStore,
    private readonly pages: ShipmentTransferStore,
    private readonly orders: OrderStore,
  ) {}

  async merge(principal: Principal, given: MergeRequest): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const request = given.trackingNumber
        ? await this.byTrackingNumber(em, principal, given)
        : given;
      const all = [request.target, ...request.shipments];
      const rows = await this.shipmentRecords.records(em, all, principal.workspaceIds, true);
      if (rows.length !== all.length) throw new NotFoundError();
      const workspaceOf = new Map(rows.map((r) => [r.id, r.workspaceId]));
      const workspaceId = workspaceOf.get(request.target)!;
      const violations: Violation[] = request.shipments.flatMap((id, i) =>
        workspaceOf.get(id) === workspaceId
          ? []
          : [
              {
                propertyPath: `shipments[${i}]`,
                message: 'The shipment must belong to the workspace of the target shipment.',
                code: ViolationCodes.invalid,
              },
            ],
      );
      if (violations.length) throw new ValidationError(violations);

      const affectedOrders: string[] = [];
      for (const id of all) affectedOrders.push(...(await this.orders.ofShipment(em, id)));
      const targetBefore = await this.shipmentEvents.watch(em, [request.target]);
      const ordersBefore = await this.orderEvents.watch(em, 'order', Order, affectedOrders);
      await announcedByCaller(
        em,
        [
          { aggregate: 'shipment', id: request.target },
          ...[...ordersBefore.keys()].map((id) => ({ aggregate: 'order' as const, id })),
        ],
        // Nested writes take the announcing runner: theirs are the merge's own changes.
        async (em) => {
          await this.moveRelated(em, request, workspaceId);
          await this.fillBlanks(em, request);
          for (const id of request.shipments) await this.removeDuplicate(em, principal, id);
          await this.orders.refreshAggregates(em, orderIdsOf(affectedOrders));
          if (request.trackingNumber) {
            // Through the shipment rules: carrier identification and tracking of the number.
            await this.writer.replaceWithin(
              em,
              this.api.registry.get(Shipment),
              request.target,
              { trackingNumber: request.trackingNumber },
              principal,
              this.shipmentsService,
            );
          }
        },
      );
      await this.shipmentEvents.indirectlyUpdated(em, targetBefore, 'merge');
      await this.orderEvents.indirectlyUpdated(em, 'order', Order, ordersBefore, 'merge');
    });
  }

  /**
   * The plugin's form: the duplicates are the other shipments of the target's workspace with
   * the tracking number (compared as the shipment rules store it: trimmed, any case).
   */
  private async byTrackingNumber(
    em: EntityManager,
    principal: Principal,
    request: MergeRequest,
  ): Promise<MergeRequest> {
    const workspaceId = await this.shipments.workspaceIn(
      em,
      request.target,
      principal.workspaceIds,
    );
    if (!workspaceId || (request.workspaceId && request.workspaceId !== workspaceId)) {
      throw new NotFoundError();
    }
    const duplicates = await this.shipments.sameNumber(
      em,
      workspaceId,
      request.trackingNumber!,
      request.target,
    );
    if (duplicates.length === 0) {
      throw ValidationError.of(
        'trackingNumber',
        'No other shipment of the workspace has this tracking number.',
        ViolationCodes.invalid,
      );
    }
    return { ...request, shipments: duplicates };
  }

  private async moveRelated(
    em: EntityManager,
    { target, shipments }: MergeRequest,
    workspaceId: string,
  ): Promise<void> {
    await this.items.moveToShipment(em, target, shipments);
    await this.shipments.takeOrders(em, target, shipments);
    await this.notes.moveToRecord(em, workspaceId, 'shipments', shipments, target);
    await this.pages.moveLinks(em, target, shipments);
  }

  /** The target's blanks filled from the first duplicate that has the value, in the given order. */
  private async fillBlanks(em: EntityManager, { target, shipments }: MergeRequest): Promise<void> {
    await this.shipments.fillBlanks(em, target, shipments);
    // One review per shipment: the target's own, else the first duplicate's.
    const moved = await this.pages.moveReview(em, target, shipments);
    if (moved) await this.shipments.showReview(em, target, moved);
  }

  /** Deletes a duplicate through the shipment rules, as DELETE /shipments/{id} does. */
  private async removeDuplicate(em: EntityManager, principal: Principal, id: string) {
    const resource = this.api.resource(Shipment);
    const shipment = await this.writer.load(resource, id, principal, em);
    await this.writer.removeWithin(em, resource, shipment, principal, this.shipmentsService);
  }
}
