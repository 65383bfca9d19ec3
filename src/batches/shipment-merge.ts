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
import { identifierFrom } from '../hydra/core/identifiers';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { typeError } from '../hydra/write/denormalizer';
import { stringList } from '../lookups/request-fields';
import { ordersOfShipment, refreshOrderAggregates } from '../orders/order-aggregates';
import { Order } from '../orders/order.entity';
import { ShipmentEvents } from '../shipments/shipment-events';
import { Shipment } from '../shipments/shipment.entity';
import { ShipmentsService } from '../shipments/shipments.service';
import { query } from '../database/query';

/** Duplicates one merge may fold into a shipment. */
export const MAX_MERGED = 100;

export interface MergeRequest {
  target: string;
  /** The duplicates, deduplicated in the given order. */
  shipments: string[];
  /**
   * The store plugin's form: the duplicates are the target workspace's other shipments with
   * this tracking number, and the target takes the number after the merge.
   */
  trackingNumber?: string;
  /** The plugin's form: the workspace the target must belong to. */
  workspaceId?: string;
}

const ADDRESS_COLUMNS = [
  'address_line1',
  'address_line2',
  'city',
  'company',
  'country',
  'country_iso2',
  'first_name',
  'last_name',
  'postcode',
  'state',
].map((c) => `address_${c}`);

/** A shipment id from an id or a /shipments IRI; 404 for anything else, like a missing one. */
function shipmentId(value: string): string {
  const trimmed = value.trim();
  const id = identifierFrom(trimmed);
  if (!id || (trimmed.includes('/') && !/^\/shipments\/[^/]+$/.test(trimmed))) {
    throw new NotFoundError();
  }
  return id;
}

/**
 * `{"target": <id or IRI>, "shipments": [<ids or IRIs>]}`: 400 for wrong types, 422 for a
 * missing target, an empty or too long list, or the target among the merged, 404 for a
 * value that is no shipment id.
 */
export function mergeRequest(body: Record<string, unknown>): MergeRequest {
  if (body.target === undefined || body.target === null || body.target === '') {
    throw ValidationError.of('target', 'This value should not be blank.', ViolationCodes.notBlank);
  }
  if (typeof body.target !== 'string') throw typeError('target', 'string', body.target);
  if (typeof body.trackingNumber === 'string' && body.trackingNumber.trim() !== '') {
    const workspace = typeof body.workspaceId === 'string' ? body.workspaceId.trim() : '';
    return {
      target: shipmentId(body.target),
      shipments: [],
      trackingNumber: body.trackingNumber.trim(),
      ...(workspace ? { workspaceId: identifierFrom(workspace) ?? workspace } : {}),
    };
  }
  if (body.shipments === undefined || body.shipments === null) {
    throw ValidationError.of(
      'shipments',
      'This value should not be blank.',
      ViolationCodes.notBlank,
    );
  }
  const values = stringList(body.shipments, 'shipments');
  if (values.length === 0 || values.length > MAX_MERGED) {
    throw ValidationError.of(
      'shipments',
      values.length === 0
        ? 'This collection should contain 1 element or more.'
        : `This collection should contain ${MAX_MERGED} elements or less.`,
      values.length === 0 ? ViolationCodes.tooShort : ViolationCodes.tooLong,
    );
  }
  const target = shipmentId(body.target);
  const shipments: string[] = [];
  const violations: Violation[] = [];
  values.forEach((value, i) => {
    const id = shipmentId(value);
    if (id === target) {
      violations.push({
        propertyPath: `shipments[${i}]`,
        message: 'The target shipment cannot be merged into itself.',
        code: ViolationCodes.invalid,
      });
    } else if (!shipments.includes(id)) shipments.push(id);
  });
  if (violations.length) throw new ValidationError(violations);
  return { target, shipments };
}

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
 * `shipment.deleted`.
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
  ) {}

  async merge(principal: Principal, given: MergeRequest): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const request = given.trackingNumber
        ? await this.byTrackingNumber(em, principal, given)
        : given;
      const all = [request.target, ...request.shipments];
      const rows: Array<{ id: string; workspace_id: string }> = await em.query(
        `SELECT id, workspace_id FROM shipment
          WHERE id = ANY($1::uuid[]) AND workspace_id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
        [all, principal.workspaceIds],
      );
      if (rows.length !== all.length) throw new NotFoundError();
      const workspaceOf = new Map(rows.map((r) => [r.id, r.workspace_id]));
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
      for (const id of all) affectedOrders.push(...(await ordersOfShipment(em, id)));
      const targetBefore = await this.shipmentEvents.watch(em, [request.target]);
      const ordersBefore = await this.orderEvents.watch(em, 'order', Order, affectedOrders);
      await announcedByCaller(
        em,
        [
          { aggregate: 'shipment', id: request.target },
          ...[...ordersBefore.keys()].map((id) => ({ aggregate: 'order' as const, id })),
        ],
        async () => {
          await this.moveRelated(em, request, workspaceId);
          await this.fillBlanks(em, request);
          for (const id of request.shipments) await this.removeDuplicate(em, principal, id);
          await refreshOrderAggregates(em, affectedOrders);
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
    const [target]: Array<{ workspace_id: string }> = await em.query(
      `SELECT workspace_id FROM shipment WHERE id = $1 AND workspace_id = ANY($2::uuid[])`,
      [request.target, principal.workspaceIds],
    );
    if (!target || (request.workspaceId && request.workspaceId !== target.workspace_id)) {
      throw new NotFoundError();
    }
    const rows: Array<{ id: string }> = await em.query(
      `SELECT id FROM shipment WHERE workspace_id = $1 AND upper(tracking_number) = upper($2)
          AND id <> $3 ORDER BY created_at, id`,
      [target.workspace_id, request.trackingNumber, request.target],
    );
    if (rows.length === 0) {
      throw ValidationError.of(
        'trackingNumber',
        'No other shipment of the workspace has this tracking number.',
        ViolationCodes.invalid,
      );
    }
    return { ...request, shipments: rows.map((r) => r.id) };
  }

  private async moveRelated(
    em: EntityManager,
    { target, shipments }: MergeRequest,
    workspaceId: string,
  ): Promise<void> {
    // Items keep their ids and quantities: the order items they ship are unchanged, so
    // what is left to fulfil is too.
    await em.query(
      `UPDATE shipment_item SET shipment_id = $1, updated_at = now() WHERE shipment_id = ANY($2::uuid[])`,
      [target, shipments],
    );
    await em.query(
      `INSERT INTO shipment_order (shipment_id, order_id)
       SELECT $1, order_id FROM shipment_order WHERE shipment_id = ANY($2::uuid[])
       ON CONFLICT DO NOTHING`,
      [target, shipments],
    );
    await em.query(
      `UPDATE shipment t
          SET order_numbers = (
                SELECT COALESCE(array_agg(n ORDER BY first), '{}') FROM (
                  SELECT n, min(pos) AS first FROM (
                    SELECT n, (o.ord * 100000 + u.i) AS pos
                      FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
                      JOIN shipment s ON s.id = o.id
                      CROSS JOIN LATERAL unnest(s.order_numbers) WITH ORDINALITY AS u(n, i)
                  ) x GROUP BY n) y)
        WHERE t.id = $1`,
      [target, [target, ...shipments]],
    );
    await em.query(
      `UPDATE note SET entity_id = $1, updated_at = now()
        WHERE workspace_id = $3 AND entity = 'shipments' AND entity_id = ANY($2::uuid[])`,
      [target, shipments, workspaceId],
    );
    // A customer holding a duplicate's link keeps a working page (one link per page).
    await em.query(
      `UPDATE tracking_page_link SET shipment_id = $1
        WHERE id IN (
          SELECT DISTINCT ON (tracking_page_id) id FROM tracking_page_link
           WHERE shipment_id = ANY($2::uuid[])
             AND tracking_page_id NOT IN (
               SELECT tracking_page_id FROM tracking_page_link WHERE shipment_id = $1)
           ORDER BY tracking_page_id, created_at, id)`,
      [target, shipments],
    );
  }

  /** The target's blanks filled from the first duplicate that has the value, in the given order. */
  private async fillBlanks(em: EntityManager, { target, shipments }: MergeRequest): Promise<void> {
    const first = (column: string) =>
      `(SELECT s.${column} FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
          JOIN shipment s ON s.id = o.id WHERE s.${column} IS NOT NULL ORDER BY o.ord LIMIT 1)`;
    await em.query(
      `UPDATE shipment t
          SET email = COALESCE(t.email, ${first('email')}),
              phone_number = COALESCE(t.phone_number, ${first('phone_number')}),
              shipment_status_id = COALESCE(t.shipment_status_id, ${first('shipment_status_id')}),
              updated_at = now()
        WHERE t.id = $1`,
      [target, shipments],
    );
    // The address goes whole (never mixed from several): the first duplicate with one.
    const anyAddress = (a: string) =>
      ADDRESS_COLUMNS.map((c) => `${a}.${c} IS NOT NULL`).join(' OR ');
    await em.query(
      `UPDATE shipment t SET ${ADDRESS_COLUMNS.map((c) => `${c} = src.${c}`).join(', ')}
         FROM (SELECT s.* FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
                 JOIN shipment s ON s.id = o.id WHERE ${anyAddress('s')} ORDER BY o.ord LIMIT 1) src
        WHERE t.id = $1 AND NOT (${anyAddress('t')})`,
      [target, shipments],
    );
    // One review per shipment: the target's own, else the first duplicate's.
    const moved = await query<{ id: string; total_score: number }>(
      em,
      `UPDATE review SET shipment_id = $1, updated_at = now()
          WHERE id = (
            SELECT r.id FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
              JOIN review r ON r.shipment_id = o.id ORDER BY o.ord LIMIT 1)
            AND NOT EXISTS (SELECT 1 FROM review WHERE shipment_id = $1)
          RETURNING id, total_score`,
      [target, shipments],
    );
    if (moved.length) {
      await em.query(`UPDATE shipment SET review = $2, review_total_score = $3 WHERE id = $1`, [
        target,
        `/reviews/${moved[0].id}`,
        moved[0].total_score,
      ]);
    }
  }

  /** Deletes a duplicate through the shipment rules, as DELETE /shipments/{id} does. */
  private async removeDuplicate(em: EntityManager, principal: Principal, id: string) {
    const resource = this.api.resource(Shipment);
    const shipment = await this.writer.load(resource, id, principal, em);
    await this.writer.removeWithin(em, resource, shipment, principal, this.shipmentsService);
  }
}
