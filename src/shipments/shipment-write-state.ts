import type { OutboxEvent } from '../events/outbox';
import type { ApiRecord } from '../hydra/core/api-record';
import type { ShipmentSnapshot } from './shipment-events';
import type { ShipmentCreation } from './shipment-store';
import type { StoredShipmentFields } from './shipment-write-rules';

/** The shipment as stored before a PUT. */
export interface StoredState extends StoredShipmentFields {
  workspaceId: string;
  orderNumbers: string[];
  /** The shipment as the API showed it before the PUT, to name what changed. */
  snapshot: ShipmentSnapshot | null;
}

/** A create's state between the pipeline's steps. */
export interface Creating {
  /** What the create's first statement read (set by validation). */
  creation?: ShipmentCreation;
  /** Recorded with `shipment.created`: the tracking's, then the deciders'. */
  events?: OutboxEvent[];
  /** The created shipment as the API shows it (read for `shipment.created`). */
  record?: ApiRecord;
  /** The snapshot read with the INSERT, while nothing else has written the shipment. */
  inserted?: ShipmentSnapshot;
}

/** What one write of a shipment carries from `begin` to its later steps (`ctx.state`). */
export interface ShipmentWrite {
  /** The stored shipment on PUT; null on POST and DELETE. */
  stored: StoredState | null;
  /** A create's state; null on PUT and DELETE. */
  creating: Creating | null;
  /**
   * The orders the body names (`orders`), as validation read them: the write links them
   * without reading them again.
   */
  givenOrders?: Array<{ id: string; orderNumber: string | null; workspaceId: string }>;
}
