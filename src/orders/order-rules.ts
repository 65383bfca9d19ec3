import { normalizeAddress } from '../addresses/address-rules';
import { ViolationCodes, type Violation } from '../common/errors/api-errors';
import type { WriteOperation } from '../hydra/core/declaration';
import { blankToNull } from '../shipments/text-input';
import type { Order } from './order.entity';
import { fulfillmentStatusOf } from './fulfillment-status';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * An order's attributes as stored: blank texts are none; a POST's type is `customer` unless
 * given (store plugins never send one); totals 0 and currency USD (upper-cased) by default,
 * also when sent as null; addresses normalised.
 */
export function normalizeOrder(order: Order, operation: WriteOperation | 'delete'): void {
  order.orderNumber = blankToNull(order.orderNumber);
  order.email = blankToNull(order.email);
  order.phoneNumber = blankToNull(order.phoneNumber);
  order.externalSourceSyncId = blankToNull(order.externalSourceSyncId);
  order.externalSourceUrl = blankToNull(order.externalSourceUrl);
  order.externalSourceIntegration = blankToNull(order.externalSourceIntegration);
  if (operation === 'post') order.orderType = blankToNull(order.orderType) ?? 'customer';
  order.subtotal ??= '0';
  order.total ??= '0';
  order.currency = blankToNull(order.currency)?.toUpperCase() ?? 'USD';
  normalizeAddress(order.shippingAddress);
  normalizeAddress(order.billingAddress);
}

/** An ISO 4217 currency code. */
export function currencyViolations(currency: string): Violation[] {
  return CURRENCIES.has(currency)
    ? []
    : [
        {
          propertyPath: 'currency',
          message: 'This value is not a valid currency.',
          code: ViolationCodes.invalid,
        },
      ];
}

export const ORDER_NUMBER_TAKEN: Violation = {
  propertyPath: 'orderNumber',
  message: 'This order number is already used by another order of the workspace.',
  code: ViolationCodes.unique,
};

/**
 * Each shipment an order is given must be of the order's workspace (`owners`: each existing
 * shipment's workspace).
 */
export function foreignShipmentViolations(
  shipmentIds: readonly string[],
  owners: ReadonlyMap<string, string>,
  workspaceId: string,
): Violation[] {
  return shipmentIds.flatMap((id, i) =>
    owners.get(id) === workspaceId
      ? []
      : [
          {
            propertyPath: `shipments[${i}]`,
            message: 'The shipment must belong to the workspace of the order.',
            code: ViolationCodes.invalid,
          },
        ],
  );
}

/** How an order's write changes its links to shipments. */
export interface OrderLinksPlan {
  /** Every shipment linked after the write. */
  wanted: string[];
  /** Linked before, not after. */
  unlinked: string[];
  /** Linked after, not before. */
  linked: string[];
}

/**
 * The shipments an order is linked to after a write: those given (`shipments` of the body),
 * else those linked already, plus those carrying its number (`carrying`: on POST, the
 * workspace's shipments that name the new order).
 */
export function planOrderLinks(
  existing: readonly string[],
  given: readonly string[] | undefined,
  carrying: readonly string[],
): OrderLinksPlan {
  const wanted = new Set([...(given ?? existing), ...carrying]);
  return {
    wanted: [...wanted],
    unlinked: existing.filter((id) => !wanted.has(id)),
    linked: [...wanted].filter((id) => !existing.includes(id)),
  };
}

/** A new shipment of a share (OrderUpdatesAtEnd), as `orderAfterEachShipment` needs it. */
export interface ShipmentStepOfOrder {
  /** The shipment's IRI, as the order's `shipments` lists it. */
  iri: string;
  /** The shipment links the order (else it only ships items of it). */
  linked: boolean;
  /** Without a tracking number: counted in the order's `shipmentsWithoutTrackingCount`. */
  untracked: boolean;
}

/** A line of the order: its quantity and what each shipment ships of it. */
export interface ShippedLine {
  qty: number;
  shippedBy: ReadonlyArray<{ shipment: string; qty: number }>;
}

/**
 * The order as its events show it after each of its new shipments (written in this order), from
 * the order before them, after all of them, and its lines as they are after them. Before a
 * shipment, the order does not list it in `shipments`, its items do not count in the
 * fulfilment, and, linked and untracked, it does not count in `shipmentsWithoutTrackingCount`
 * (fulfillmentStatusOf and OrderStore.refreshAggregates; a link alone dates nothing). The
 * refresh dates the order (`updatedAt`) from the first shipment that moves those aggregates.
 * Null unless the state before the first comes out as `before` and after the last as `after`:
 * a change this rule does not know of.
 */
export function orderAfterEachShipment(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  steps: readonly ShipmentStepOfOrder[],
  lines: readonly ShippedLine[],
): Array<Record<string, unknown>> | null {
  const listed = (after.shipments as string[] | undefined) ?? [];
  const untracked = Number(after.shipmentsWithoutTrackingCount ?? 0);
  // The aggregates once the first k shipments are written.
  const aggregatesAfter = (k: number) => {
    const later = steps.slice(k);
    const unwritten = new Set(later.map((s) => s.iri));
    return {
      shipments: listed.filter((iri) => !unwritten.has(iri)),
      fulfillmentStatus: fulfillmentStatusOf(
        lines.map((line) => ({
          qty: line.qty,
          fulfilledQty: line.shippedBy
            .filter((s) => !unwritten.has(s.shipment))
            .reduce((sum, s) => sum + s.qty, 0),
        })),
      ),
      shipmentsWithoutTrackingCount:
        untracked - later.filter((s) => s.linked && s.untracked).length,
    };
  };
  const states: Array<Record<string, unknown>> = [];
  let dated = false;
  for (let k = 0; k <= steps.length; k++) {
    const aggregates = aggregatesAfter(k);
    const previous = states[k - 1];
    if (
      previous &&
      (previous.fulfillmentStatus !== aggregates.fulfillmentStatus ||
        previous.shipmentsWithoutTrackingCount !== aggregates.shipmentsWithoutTrackingCount)
    )
      dated = true;
    states.push({
      ...after,
      ...aggregates,
      updatedAt: dated ? after.updatedAt : before.updatedAt,
    });
  }
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(states[0], before) || !same(states[steps.length], after)) return null;
  return states.slice(1);
}
