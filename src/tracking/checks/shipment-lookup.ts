import { Injectable } from '@nestjs/common';
import type { Principal } from '../../access/principal';
import { HydraApi } from '../../hydra/controller/hydra-api';
import { identifierFrom, isStorableText } from '../../hydra/core/identifiers';
import { NotFoundError, ValidationError, type Violation } from '../../common/errors/api-errors';
import { typeError } from '../../hydra/write/denormalizer';
import { ShipmentTrackingStore } from '../../shipments/shipment-tracking-store';

/**
 * Finds the shipments a tracking action names, within the caller's tenancy: by id or IRI
 * (a missing or foreign one is 404, like any reference), or by tracking number in a workspace
 * (the workspace must be visible: 404; an unknown number is a 422 violation at its index).
 */
@Injectable()
export class ShipmentLookup {
  constructor(
    private readonly api: HydraApi,
    private readonly shipments: ShipmentTrackingStore,
  ) {}

  /** Shipment ids for ids or IRIs, deduplicated in the given order; one query for all. */
  async byReferences(principal: Principal, references: unknown, attribute: string) {
    const values = stringArray(references, attribute);
    const ids: string[] = [];
    for (const value of values) {
      const id = identifierFrom(value);
      if (!id || (value.includes('/') && value !== `/shipments/${value.split('/').pop()}`)) {
        throw new NotFoundError();
      }
      if (!ids.includes(id)) ids.push(id);
    }
    const found = await this.shipments.inWorkspaces(
      this.api.data.pool,
      ids,
      principal.workspaceIds,
    );
    if (found.length !== ids.length) throw new NotFoundError();
    return ids;
  }

  /** The shipments a tracking check names: by ids, or by tracking numbers of `workspaceId`. */
  named(
    principal: Principal,
    input: { ids?: string[] | null; trackingNumbers?: string[] | null },
    workspaceId: string | undefined,
  ): Promise<string[]> {
    if (input.ids) return this.byReferences(principal, input.ids, 'ids');
    if (!workspaceId) throw new Error('A tracking number check without its workspace');
    return this.byTrackingNumbers(workspaceId, input.trackingNumbers ?? [], 'trackingNumbers');
  }

  /** The shipment of the workspace with this tracking number; 404 when there is none. */
  async byTrackingNumber(workspaceId: string, number: string): Promise<string> {
    // Text PostgreSQL cannot store (a NUL) names no shipment.
    if (!isStorableText(number)) throw new NotFoundError();
    const [found] = await this.shipments.byTrackingNumbers(this.api.data.pool, workspaceId, [
      number.trim(),
    ]);
    if (!found) throw new NotFoundError();
    return found.id;
  }

  /** The carrier a shipment was detected with (pushed checkpoints default to it). */
  async originCarrier(shipmentId: string): Promise<string | null> {
    return this.shipments.originCarrier(this.api.data.pool, shipmentId);
  }

  /** Shipment ids for tracking numbers of one workspace, in the given order. */
  async byTrackingNumbers(
    workspaceId: string,
    numbers: string[],
    attribute: string,
  ): Promise<string[]> {
    const rows = await this.shipments.byTrackingNumbers(
      this.api.data.pool,
      workspaceId,
      // Text PostgreSQL cannot store (a NUL) matches nothing: reported as unknown below.
      numbers.map((n) => n.trim()).filter(isStorableText),
    );
    const byNumber = new Map(rows.map((r) => [r.tracking_number, r.id]));
    const violations: Violation[] = [];
    const ids: string[] = [];
    numbers.forEach((n, i) => {
      const id = byNumber.get(n.trim());
      if (!id) {
        violations.push({
          propertyPath: `${attribute}[${i}]`,
          message: 'No shipment of the workspace has this tracking number.',
          code: null,
        });
      } else if (!ids.includes(id)) ids.push(id);
    });
    if (violations.length > 0) throw new ValidationError(violations);
    return ids;
  }
}

export function stringArray(value: unknown, attribute: string): string[] {
  if (!Array.isArray(value)) throw typeError(attribute, 'array', value);
  value.forEach((v, i) => {
    if (typeof v !== 'string') throw typeError(`${attribute}[${i}]`, 'string', v);
  });
  return value as string[];
}
